/**
 * The dashboard's charts: the balance over time and money in / out by month for the last
 * six calendar months, whose recharts code loads in a chunk of its own (React.lazy) once
 * the data is here.
 */
import { lazy, Suspense, useState, type ReactElement } from 'react';
import { Card } from '../../../components/ui/misc.tsx';
import { chartPeriod, CHART_MONTHS, useStatementCharts } from '../api/get-statement-charts.ts';
import styles from './ChartsCard.module.css';

const DashboardCharts = lazy(() => import('./DashboardCharts.tsx'));

export function ChartsCard(): ReactElement {
  const [period] = useState(() => chartPeriod());
  const charts = useStatementCharts(period);
  return (
    <Card title="Your money" className={styles.card}>
      <p className="muted small">Last {CHART_MONTHS} months, India Standard Time days.</p>
      {charts.isPending ? <p className="muted">Loading charts...</p> : null}
      {charts.isError ? <p className="field-error">{charts.error.message}</p> : null}
      {charts.data ? (
        <Suspense fallback={<p className="muted">Loading charts...</p>}>
          <DashboardCharts data={charts.data} />
        </Suspense>
      ) : null}
    </Card>
  );
}
