/**
 * The Operations page's charts (recharts, loaded lazily with OperationsPage's charts card):
 * the trial balance per account kind and in total, and each projection's lag in events, over
 * the samples the page has taken (api/operations-samples.ts).
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { formatRupees } from '../../../lib/format.ts';
import { useElementWidth } from '../../../lib/use-element-width.ts';
import type { Sample } from '../api/operations-samples.ts';
import styles from './OperationsCharts.module.css';

const HEIGHT = 220;
const COLORS = ['#1e40af', '#059669', '#dc2626', '#b45309', '#7c3aed', '#0e7490'];
const timeLabel = new Intl.DateTimeFormat('en-IN', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

function time(value: unknown): string {
  return typeof value === 'number' ? timeLabel.format(new Date(value)) : String(value);
}

function seriesOf(samples: readonly Sample[]): string[] {
  const names = new Set<string>();
  for (const sample of samples) for (const key of Object.keys(sample)) if (key !== 'time') names.add(key);
  return [...names].sort();
}

function SamplesChart(props: {
  title: string;
  testId: string;
  samples: readonly Sample[];
  format: (value: number) => string;
}): ReactElement {
  const { t } = useTranslation();
  const [ref, width] = useElementWidth<HTMLDivElement>(520);
  const series = seriesOf(props.samples);
  return (
    <figure className={styles.opsChart} data-testid={props.testId}>
      <figcaption className="small muted">
        {props.samples.length === 1
          ? t('audit.chartOneSample', { title: props.title })
          : t('audit.chartSamples', { title: props.title, count: props.samples.length })}
      </figcaption>
      <div ref={ref} className={styles.opsChartArea}>
        <LineChart
          width={width}
          height={HEIGHT}
          data={[...props.samples]}
          margin={{ top: 8, right: 8, left: 8, bottom: 0 }}
        >
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="time" type="number" domain={['dataMin', 'dataMax']} tickFormatter={time} scale="time" />
          <YAxis tickFormatter={props.format} width={90} />
          <Tooltip
            labelFormatter={time}
            formatter={(value) => (typeof value === 'number' ? props.format(value) : value)}
          />
          <Legend />
          {series.map((name, index) => (
            <Line
              key={name}
              type="linear"
              dataKey={name}
              name={name}
              stroke={COLORS[index % COLORS.length]}
              // Dots: the first sample (and a trial balance sampled every 30 s) is a single point, no line yet.
              dot={{ r: 2 }}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </div>
    </figure>
  );
}

export default function OperationsCharts(props: {
  trialBalance: readonly Sample[];
  lag: readonly Sample[];
}): ReactElement {
  const { t } = useTranslation();
  return (
    <div className={styles.opsCharts}>
      <SamplesChart
        title={t('audit.trialBalanceChart')}
        testId="trial-balance-chart"
        samples={props.trialBalance}
        format={(value) => formatRupees(value, { whole: true })}
      />
      <SamplesChart
        title={t('audit.lagChart')}
        testId="projection-lag-chart"
        samples={props.lag}
        format={(value) => value.toLocaleString('en-IN')}
      />
    </div>
  );
}
