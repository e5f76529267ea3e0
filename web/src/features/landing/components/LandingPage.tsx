/**
 * The public landing page (spec sections 1 and 2): top bar, hero with the two real
 * screenshots (taken by the browser tests into /screenshots; a neutral frame when they are
 * missing), six feature cards, the statistics band (this instance's real figures from GET /api/stats),
 * call to action and footer. Kept light:
 * it is the first route most visitors load.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { SiteHeader } from '../../../components/SiteHeader/SiteHeader.tsx';
import { LandingFeatures } from './LandingFeatures.tsx';
import { LandingFooter } from './LandingFooter.tsx';
import { LandingHero } from './LandingHero.tsx';
import { LandingStats } from './LandingStats.tsx';
import styles from './Landing.module.css';

export default function LandingPage(): ReactElement {
  const { t } = useTranslation();
  return (
    <div className={styles.landing}>
      <SiteHeader>
        <a href="#features" className={`${styles.landingLink} hide-sm`}>
          {t('landing.features')}
        </a>
        <Link to="/docs" className="btn btn-ghost btn-md hide-sm">
          {t('publicPages.docs')}
        </Link>
        <Link to="/register" className="btn btn-primary btn-md">
          {t('publicPages.getStarted')}
        </Link>
      </SiteHeader>
      <main id="main">
        <LandingHero />
        <LandingFeatures />
        <LandingStats />
        <section className={styles.cta}>
          <h2>{t('landing.ctaTitle')}</h2>
          <p>{t('landing.ctaText')}</p>
          <div className={styles.heroActions}>
            <Link to="/register" className="btn btn-light btn-lg">
              {t('landing.createAccount')}
            </Link>
            <Link to="/docs" className="btn btn-outline-light btn-lg">
              {t('landing.readDocs')}
            </Link>
          </div>
        </section>
      </main>
      <LandingFooter />
    </div>
  );
}
