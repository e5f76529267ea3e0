/**
 * GET /api/transactions/:transactionId: one entry of the signed-in user's history, for the
 * payment's own page. Keyed under ['ledger', ...] so a live ledger event refreshes it with the
 * history.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TransactionDetail } from '../../../../../contracts/transaction-detail.ts';
import { apiData } from '../../../lib/api-client.ts';

export type { TransactionDetail };

export function fetchTransaction(transactionId: string, signal?: AbortSignal): Promise<TransactionDetail> {
  return apiData<TransactionDetail>(`/api/transactions/${encodeURIComponent(transactionId)}`, {
    signal,
    fallbackMessage: 'Failed to fetch the transaction',
  });
}

export function transactionQuery(transactionId: string) {
  return queryOptions({
    queryKey: ['ledger', 'transaction', transactionId],
    queryFn: ({ signal }) => fetchTransaction(transactionId, signal),
    // A 404 (not one of yours, or no such id) will not change on a retry.
    retry: false,
  });
}

export function useTransaction(transactionId: string) {
  return useQuery(transactionQuery(transactionId));
}
