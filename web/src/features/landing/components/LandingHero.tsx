/**
 * The landing page's hero: headline, sign-up and log-in, the assurances, and the desktop and
 * phone screenshots.
 */
import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { Icon } from '../../../components/ui/icons.tsx';
import { Screenshot } from './Screenshot.tsx';
import styles from './Landing.module.css';

export function LandingHero(): ReactElement {
  return (
    <section className={styles.hero}>
      <div className="hero-copy">
        <span className={styles.heroBadge}>
          <span className={styles.heroBadgeDot} aria-hidden="true" /> Now Live: Money Request &amp; Role-Based Access
        </span>
        <h1 className={styles.heroTitle}>
          Your Digital Wallet <span className={styles.accent}>Reimagined</span>
        </h1>
        <p className={styles.heroText}>
          Hold rupees, pay anyone by account number or QR code, request money and top up by UPI, bank transfer or card —
          with a PIN on every payment and a ledger that never loses a paisa.
        </p>
        <div className={styles.heroActions}>
          <Link to="/register" className="btn btn-primary btn-lg">
            Sign Up
          </Link>
          <Link to="/login" className="btn btn-secondary btn-lg">
            Log in
          </Link>
        </div>
        <ul className={styles.heroBadges} aria-label="Assurances">
          <li>
            <Icon name="shield" size={16} /> PCI DSS
          </li>
          <li>
            <Icon name="lock" size={16} /> ISO 27001
          </li>
          <li>
            <Icon name="card" size={16} /> Stripe card payments
          </li>
          <li>
            <Icon name="check" size={16} /> No setup fees
          </li>
          <li>
            <Icon name="phone" size={16} /> 24/7 support
          </li>
        </ul>
      </div>
      <div className={styles.heroPreview} aria-label="Product preview">
        <Screenshot
          src="/screenshots/desktop.png"
          alt="The wallet dashboard on a desktop screen"
          className={styles.shotDesktop}
        />
        <Screenshot src="/screenshots/mobile.png" alt="The wallet dashboard on a phone" className={styles.shotMobile} />
      </div>
    </section>
  );
}
