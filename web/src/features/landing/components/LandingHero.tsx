/**
 * The landing page's hero: headline, sign-up and log-in, the assurances (each one a thing the
 * product does: the card provider's own card fields, four eyes on admin money, the PIN on every
 * payment, no fees), and the desktop and phone screenshots.
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
        {/* Only what the product does (issue 41): no certification, audit or support line it does not have. */}
        <ul className={styles.heroBadges} aria-label={t('landing.assurances')}>
          <li>
            <Icon name="card" size={16} /> {t('landing.cardFields')}
          </li>
          <li>
            <Icon name="users" size={16} /> {t('landing.fourEyes')}
          </li>
          <li>
            <Icon name="lock" size={16} /> {t('landing.pinOnEveryPayment')}
          </li>
          <li>
            <Icon name="check" size={16} /> {t('landing.noFees')}
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
