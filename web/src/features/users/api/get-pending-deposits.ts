/**
 * GET /api/admin/pending-deposits (admin): bank-transfer and UPI deposits waiting for an
 * admin to settle or fail them, oldest first. Under the ledger key, so every command
 * (a settlement here, an approval on the operations page) refreshes the list.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PendingDeposit, PendingDepositPage } from '../../../../../contracts/admin.ts';
import { apiData } from '../../../lib/api-client.ts';
import { ledgerKey } from '../../../lib/query-client.ts';

export type { PendingDeposit };

/** One page is plenty for a review screen; the oldest come first, so nothing waits unseen for long. */
export const PENDING_DEPOSITS_LIMIT = 100;

export function fetchPendingDeposits(): Promise<PendingDepositPage> {
  return apiData<PendingDepositPage>('/api/admin/pending-deposits', {
    query: { limit: String(PENDING_DEPOSITS_LIMIT) },
    fallbackMessage: 'Failed to fetch pending deposits',
  });
}

export const pendingDepositsQuery = queryOptions({
  queryKey: [...ledgerKey, 'admin', 'pending-deposits'],
  queryFn: fetchPendingDeposits,
});

export function usePendingDeposits() {
  return useQuery(pendingDepositsQuery);
}
