/**
 * The landing page's statistics band: this instance's own figures (GET /api/stats, read from
 * the ledger's read tables; customers from the accounts admins verified, admins not counted) -
 * customers, payments made, money moved - each counting up
 * once in view. Nothing is invented: a new instance shows 0, and while the figures load (or
 * if they cannot be read) the band says so instead of showing a number.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { Messages } from '../../../i18n/resources/en.ts';
import { formatRupees } from '../../../lib/format.ts';
import { useInstanceStats, type InstanceStats } from '../api/get-stats.ts';
import { CountUp } from './CountUp.tsx';
import styles from './Landing.module.css';

interface Figure {
  label: keyof Messages['landing'];
  value: (stats: InstanceStats) => number;
  format?: (value: number) => string;
}

const FIGURES: readonly Figure[] = [
  { label: 'customers', value: (stats) => stats.accounts },
  { label: 'paymentsMade', value: (stats) => stats.payments },
  {
    label: 'moneyMoved',
    value: (stats) => stats.moneyMoved,
    format: (value) => formatRupees(Math.round(value), { whole: true }),
  },
];

export function LandingStats(): ReactElement {
  const { t } = useTranslation();
  const stats = useInstanceStats();
  return (
    <section className={styles.stats} aria-labelledby="stats-title">
      <h2 id="stats-title" className="sr-only">
        {t('landing.statsTitle')}
      </h2>
      {FIGURES.map((figure) => (
        <div key={figure.label}>
          <p className={styles.statValue}>
            {stats.data ? (
              <CountUp target={figure.value(stats.data)} {...(figure.format ? { format: figure.format } : {})} />
            ) : (
              <span className={styles.statPending}>{stats.isError ? t('landing.unavailable') : '…'}</span>
            )}
          </p>
          <p className={styles.statLabel}>{t(`landing.${figure.label}`)}</p>
        </div>
      ))}
    </section>
  );
}
