/**
 * Recent activity: the 3 newest transactions, from the history endpoint (page 1, size 3),
 * under the ledger key so commands refresh it with read-your-writes.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { historyQuerySchema, TransactionRecord } from '../../../../../contracts/transactions.ts';
import { apiData } from '../../../lib/api-client.ts';
import { latestCheckpoint } from '../../../lib/checkpoint.ts';

export const RECENT_COUNT = 3;

export async function fetchRecent(): Promise<TransactionRecord[]> {
  const minPosition = latestCheckpoint();
  const body: z.input<typeof historyQuerySchema> = {
    page: 1,
    pageSize: RECENT_COUNT,
    type: 'all',
    ...(minPosition ? { minPosition } : {}),
  };
  const data = await apiData<{ items: TransactionRecord[] } | TransactionRecord[]>(
    '/api/transactions/get-all-transactions-by-user',
    {
      method: 'POST',
      body,
      fallbackMessage: 'Failed to fetch transactions',
    },
  );
  return (Array.isArray(data) ? data : data.items).slice(0, RECENT_COUNT);
}

export const recentQuery = queryOptions({ queryKey: ['ledger', 'recent'], queryFn: fetchRecent });

export function useRecentTransactions() {
  return useQuery(recentQuery);
}
