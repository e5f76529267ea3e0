/**
 * GET /api/transactions/recent-payees: the people the user paid most recently, for one-tap
 * payee buttons on the send dialog and the dashboard. Under the ledger key, so a payment
 * refreshes it with the balances.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RecentPayee } from '../../../../contracts/payees.ts';
import { apiData } from '../api-client.ts';
import { ledgerKey } from '../query-client.ts';

export type { RecentPayee };

export function fetchRecentPayees(): Promise<RecentPayee[]> {
  return apiData<RecentPayee[]>('/api/transactions/recent-payees', {
    fallbackMessage: 'Failed to fetch recent payees',
  });
}

export const recentPayeesQuery = queryOptions({
  queryKey: [...ledgerKey, 'recent-payees'],
  queryFn: fetchRecentPayees,
});

export function useRecentPayees() {
  return useQuery(recentPayeesQuery);
}
