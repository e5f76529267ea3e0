/**
 * The landing page's six feature cards.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon, type IconName } from '../../../components/ui/icons.tsx';
import type { Messages } from '../../../i18n/resources/en.ts';
import styles from './Landing.module.css';

type LandingKey = keyof Messages['landing'];

/** Keys, not texts: each card is translated when it renders. */
const FEATURES: { icon: IconName; title: LandingKey; text: LandingKey }[] = [
  { icon: 'qr', title: 'qrTitle', text: 'qrText' },
  { icon: 'card', title: 'cardTitle', text: 'cardText' },
  { icon: 'requests', title: 'requestsTitle', text: 'requestsText' },
  { icon: 'shield', title: 'identityTitle', text: 'identityText' },
  { icon: 'users', title: 'rolesTitle', text: 'rolesText' },
  { icon: 'chart', title: 'trackingTitle', text: 'trackingText' },
];

export function LandingFeatures(): ReactElement {
  const { t } = useTranslation();
  return (
    <section id="features" className={styles.features} aria-labelledby="features-title">
      <h2 id="features-title" className={styles.sectionTitle}>
        {t('landing.featuresTitle')}
      </h2>
      <p className="section-text">{t('landing.featuresText')}</p>
      <div className={styles.featureGrid}>
        {FEATURES.map((feature) => (
          <article key={feature.title} className={styles.featureCard}>
            <span className={styles.featureIcon}>
              <Icon name={feature.icon} />
            </span>
            <h3>{t(`landing.${feature.title}`)}</h3>
            <p>{t(`landing.${feature.text}`)}</p>
          </article>
        ))}
      </div>
    </section>
  );
}
