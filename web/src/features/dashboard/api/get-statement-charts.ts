/**
 * GET /api/transactions/statement/charts: the signed-in user's daily closing balances and
 * money in / out per month for a period (India Standard Time days), under the ledger key so
 * commands refresh it. The dashboard asks for the last six calendar months.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  addDays,
  kolkataToday,
  statementChartsSchema,
  type StatementCharts,
} from '../../../../../contracts/statements.ts';
import { apiData } from '../../../lib/api-client.ts';

export type { StatementCharts };

/** How many calendar months the dashboard's charts cover, this one included. */
export const CHART_MONTHS = 6;

/** From the first day of the month CHART_MONTHS - 1 months back, to today (Kolkata). */
export function chartPeriod(today: string = kolkataToday()): { from: string; to: string } {
  const [year = 2000, month = 1] = today.split('-').map(Number);
  const start = new Date(Date.UTC(year, month - 1 - (CHART_MONTHS - 1), 1));
  return { from: addDays(start.toISOString().slice(0, 10), 0), to: today };
}

export async function fetchStatementCharts(period: { from: string; to: string }): Promise<StatementCharts> {
  const data = await apiData<unknown>('/api/transactions/statement/charts', {
    query: period,
    fallbackMessage: 'Failed to load your charts',
  });
  return statementChartsSchema.parse(data);
}

export function statementChartsQuery(period: { from: string; to: string }) {
  return queryOptions({
    queryKey: ['ledger', 'statement-charts', period.from, period.to],
    queryFn: () => fetchStatementCharts(period),
  });
}

export function useStatementCharts(period: { from: string; to: string }) {
  return useQuery(statementChartsQuery(period));
}
