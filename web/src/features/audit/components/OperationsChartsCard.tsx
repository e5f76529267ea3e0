/**
 * The Operations page's charts over time: the trial balance and the projections' lag,
 * sampled while the page is open; recharts loads lazily, in a chunk of its own.
 */
import { lazy, Suspense, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/misc.tsx';
import { DEFAULT_SAMPLE_INTERVALS, useOperationsSamples, type SampleIntervals } from '../api/operations-samples.ts';
import styles from './Audit.module.css';

const OperationsCharts = lazy(() => import('./OperationsCharts.tsx'));

/** The trial balance and projection lag over time: sampled here, drawn by the lazy chart module. */
export function OperationsChartsCard({
  intervals = DEFAULT_SAMPLE_INTERVALS,
}: {
  intervals?: SampleIntervals;
}): ReactElement {
  const { t } = useTranslation();
  const samples = useOperationsSamples(intervals);
  return (
    <Card title={t('audit.overTime')} className={styles.auditSection}>
      <p className="small muted">{t('audit.overTimeText', { seconds: intervals.trialBalanceMs / 1000 })}</p>
      <Suspense fallback={<p className="muted pad">{t('audit.loadingCharts')}</p>}>
        <OperationsCharts trialBalance={samples.trialBalance} lag={samples.lag} />
      </Suspense>
    </Card>
  );
}
