/**
 * The dashboard's charts: the balance over time and money in / out by month for the last
 * six calendar months, whose recharts code loads in a chunk of its own (React.lazy) once
 * the data is here.
 */
import { lazy, Suspense, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/misc.tsx';
import { chartPeriod, CHART_MONTHS, useStatementCharts } from '../api/get-statement-charts.ts';
import styles from './ChartsCard.module.css';

const DashboardCharts = lazy(() => import('./DashboardCharts.tsx'));

export function ChartsCard(): ReactElement {
  const { t } = useTranslation();
  const [period] = useState(() => chartPeriod());
  const charts = useStatementCharts(period);
  return (
    <Card title={t('dashboard.yourMoney')} className={styles.card}>
      <p className="muted small">{t('dashboard.chartPeriod', { months: CHART_MONTHS })}</p>
      {charts.isPending ? <p className="muted">{t('dashboard.loadingCharts')}</p> : null}
      {charts.isError ? <p className="field-error">{charts.error.message}</p> : null}
      {charts.data ? (
        <Suspense fallback={<p className="muted">{t('dashboard.loadingCharts')}</p>}>
          <DashboardCharts data={charts.data} />
        </Suspense>
      ) : null}
    </Card>
  );
}
