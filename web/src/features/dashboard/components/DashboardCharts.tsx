/**
 * The dashboard's charts (recharts): the balance at the end of every day, and money in / out
 * per month, from the statement_days projection. Loaded lazily (DashboardPage), so recharts is in
 * a chunk of its own: neither the landing page nor the dashboard's first chunk carries it.
 * Each chart says in words what it shows (figcaption), for screen readers and at a glance.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Area, AreaChart, Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import type { StatementCharts } from '../../../../../contracts/statements.ts';
import { formatDay, formatMonth, formatRupees } from '../../../lib/format.ts';
import { useElementWidth } from '../../../lib/use-element-width.ts';
import styles from './DashboardCharts.module.css';

const CHART_HEIGHT = 220;
export const MONEY_IN_COLOR = '#059669';
export const MONEY_OUT_COLOR = '#dc2626';

// Days and months in the chosen language (they were English in Hindi too).
const day = formatDay;
const month = formatMonth;

function rupeesTick(value: number): string {
  return formatRupees(value, { whole: true });
}

function tooltipRupees(value: unknown): string {
  return typeof value === 'number' ? formatRupees(value) : String(value);
}

export function BalanceChart({ data }: { data: StatementCharts }): ReactElement {
  const { t } = useTranslation();
  const [ref, width] = useElementWidth<HTMLDivElement>(520);
  return (
    <figure className={styles.chart} data-testid="balance-chart">
      <figcaption className={styles.caption}>
        {t('dashboard.balanceCaption', {
          opening: formatRupees(data.openingBalance),
          from: day(data.from),
          closing: formatRupees(data.closingBalance),
          to: day(data.to),
        })}
      </figcaption>
      <div ref={ref} className={`${styles.area} ${styles.balance}`}>
        <AreaChart
          width={width}
          height={CHART_HEIGHT}
          data={data.daily}
          margin={{ top: 8, right: 8, left: 8, bottom: 0 }}
        >
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="date" tickFormatter={day} minTickGap={24} />
          <YAxis tickFormatter={rupeesTick} width={80} />
          <Tooltip labelFormatter={(label) => day(String(label))} formatter={tooltipRupees} />
          <Area
            type="stepAfter"
            dataKey="balance"
            name={t('dashboard.balance')}
            stroke="currentColor"
            fill="currentColor"
            fillOpacity={0.15}
            isAnimationActive={false}
          />
        </AreaChart>
      </div>
    </figure>
  );
}

export function MoneyInOutChart({ data }: { data: StatementCharts }): ReactElement {
  const { t } = useTranslation();
  const [ref, width] = useElementWidth<HTMLDivElement>(520);
  return (
    <figure className={styles.chart} data-testid="money-in-out-chart">
      <figcaption className={styles.caption}>
        {t('dashboard.moneyCaption', { moneyIn: formatRupees(data.moneyIn), moneyOut: formatRupees(data.moneyOut) })}
      </figcaption>
      <div ref={ref} className={styles.area}>
        <BarChart
          width={width}
          height={CHART_HEIGHT}
          data={data.monthly}
          margin={{ top: 8, right: 8, left: 8, bottom: 0 }}
        >
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="month" tickFormatter={month} />
          <YAxis tickFormatter={rupeesTick} width={80} />
          <Tooltip labelFormatter={(label) => month(String(label))} formatter={tooltipRupees} />
          <Legend />
          <Bar dataKey="moneyIn" name={t('dashboard.moneyIn')} fill={MONEY_IN_COLOR} isAnimationActive={false} />
          <Bar dataKey="moneyOut" name={t('dashboard.moneyOut')} fill={MONEY_OUT_COLOR} isAnimationActive={false} />
        </BarChart>
      </div>
    </figure>
  );
}

export default function DashboardCharts({ data }: { data: StatementCharts }): ReactElement {
  return (
    <div className={styles.grid}>
      <BalanceChart data={data} />
      <MoneyInOutChart data={data} />
    </div>
  );
}
