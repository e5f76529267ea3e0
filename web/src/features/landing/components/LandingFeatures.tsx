/**
 * The landing page's six feature cards.
 */
import type { ReactElement } from 'react';
import { Icon, type IconName } from '../../../components/ui/icons.tsx';
import styles from './Landing.module.css';

const FEATURES: { icon: IconName; title: string; text: string }[] = [
  {
    icon: 'qr',
    title: 'UPI QR Payments',
    text: 'Scan any wallet QR code with your camera or upload an image, verify the recipient and pay in seconds. Merchants get a UPI-compatible QR for every counter.',
  },
  {
    icon: 'card',
    title: 'Card Payments',
    text: 'Top up instantly with a debit or credit card through our PCI DSS compliant card partner, or add money by bank transfer and UPI.',
  },
  {
    icon: 'requests',
    title: 'Money Requests',
    text: 'Ask friends, family or customers for money. They approve with their PIN and the transfer happens automatically.',
  },
  {
    icon: 'shield',
    title: 'Identity Verification',
    text: 'Every account is checked against its identity documents (KYC) before it can move money, keeping fraud out of the network.',
  },
  {
    icon: 'users',
    title: 'Role-Based Access',
    text: 'Customisable permissions for admins, users and merchants. Admins verify customers and suspend accounts from one screen.',
  },
  {
    icon: 'chart',
    title: 'Real-Time Tracking',
    text: 'Every rupee is tracked as it moves: searchable history, instant balances and analytics for your spending.',
  },
];

export function LandingFeatures(): ReactElement {
  return (
    <section id="features" className={styles.features} aria-labelledby="features-title">
      <h2 id="features-title" className={styles.sectionTitle}>
        Everything your money needs
      </h2>
      <p className="section-text">One wallet for people and merchants: pay, get paid and stay in control.</p>
      <div className={styles.featureGrid}>
        {FEATURES.map((feature) => (
          <article key={feature.title} className={styles.featureCard}>
            <span className={styles.featureIcon}>
              <Icon name={feature.icon} />
            </span>
            <h3>{feature.title}</h3>
            <p>{feature.text}</p>
          </article>
        ))}
      </div>
    </section>
  );
}
