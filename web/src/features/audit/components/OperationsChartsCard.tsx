/**
 * The Operations page's charts over time: the trial balance and the projections' lag,
 * sampled while the page is open; recharts loads lazily, in a chunk of its own.
 */
import { lazy, Suspense, type ReactElement } from 'react';
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
  const samples = useOperationsSamples(intervals);
  return (
    <Card title="Over time" className={styles.auditSection}>
      <p className="small muted">
        Sampled while this page is open: the lag as the server reports it (every few seconds), the trial balance when
        money has moved (at most every {intervals.trialBalanceMs / 1000} s). Prometheus keeps the long history.
      </p>
      <Suspense fallback={<p className="muted pad">Loading charts...</p>}>
        <OperationsCharts trialBalance={samples.trialBalance} lag={samples.lag} />
      </Suspense>
    </Card>
  );
}
