/**
 * The landing page's hero: headline, sign-up and log-in, the assurances, and the desktop and
 * phone screenshots.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Icon } from '../../../components/ui/icons.tsx';
import { Screenshot } from './Screenshot.tsx';
import styles from './Landing.module.css';

export function LandingHero(): ReactElement {
  const { t } = useTranslation();
  return (
    <section className={styles.hero}>
      <div className="hero-copy">
        <span className={styles.heroBadge}>
          <span className={styles.heroBadgeDot} aria-hidden="true" /> {t('landing.badge')}
        </span>
        <h1 className={styles.heroTitle}>
          {t('landing.titleBefore')} <span className={styles.accent}>{t('landing.titleAccent')}</span>
        </h1>
        <p className={styles.heroText}>{t('landing.heroText')}</p>
        <div className={styles.heroActions}>
          <Link to="/register" className="btn btn-primary btn-lg">
            {t('landing.signUp')}
          </Link>
          <Link to="/login" className="btn btn-secondary btn-lg">
            {t('landing.logIn')}
          </Link>
        </div>
        <ul className={styles.heroBadges} aria-label={t('landing.assurances')}>
          <li>
            <Icon name="shield" size={16} /> PCI DSS
          </li>
          <li>
            <Icon name="lock" size={16} /> ISO 27001
          </li>
          <li>
            <Icon name="card" size={16} /> {t('landing.stripe')}
          </li>
          <li>
            <Icon name="check" size={16} /> {t('landing.noFees')}
          </li>
          <li>
            <Icon name="phone" size={16} /> {t('landing.allDaySupport')}
          </li>
        </ul>
      </div>
      <div className={styles.heroPreview} aria-label={t('landing.preview')}>
        <Screenshot src="/screenshots/desktop.png" alt={t('landing.shotDesktop')} className={styles.shotDesktop} />
        <Screenshot src="/screenshots/mobile.png" alt={t('landing.shotMobile')} className={styles.shotMobile} />
      </div>
    </section>
  );
}
