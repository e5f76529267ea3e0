/**
 * The public landing page (spec sections 1 and 2): top bar, hero with the two real
 * screenshots (taken by the browser tests into /screenshots; a neutral frame when they are
 * missing), six feature cards, the statistics band (this instance's real figures from GET /api/stats),
 * call to action and footer. Kept light:
 * it is the first route most visitors load.
 */
import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { SiteHeader } from '../../../components/SiteHeader/SiteHeader.tsx';
import { LandingFeatures } from './LandingFeatures.tsx';
import { LandingFooter } from './LandingFooter.tsx';
import { LandingHero } from './LandingHero.tsx';
import { LandingStats } from './LandingStats.tsx';
import styles from './Landing.module.css';

export default function LandingPage(): ReactElement {
  return (
    <div className={styles.landing}>
      <SiteHeader>
        <a href="#features" className={`${styles.landingLink} hide-sm`}>
          Features
        </a>
        <Link to="/docs" className="btn btn-ghost btn-md hide-sm">
          Docs
        </Link>
        <Link to="/register" className="btn btn-primary btn-md">
          Get Started
        </Link>
      </SiteHeader>
      <main id="main">
        <LandingHero />
        <LandingFeatures />
        <LandingStats />
        <section className={styles.cta}>
          <h2>Open your wallet in minutes</h2>
          <p>No setup fees. Verified accounts only. Support around the clock.</p>
          <div className={styles.heroActions}>
            <Link to="/register" className="btn btn-light btn-lg">
              Create free account
            </Link>
            <Link to="/docs" className="btn btn-outline-light btn-lg">
              Read the docs
            </Link>
          </div>
        </section>
      </main>
      <LandingFooter />
    </div>
  );
}
