/**
 * GET /api/requests/get-all-requests-by-user: requests the user sent or received, newest
 * first, waiting for the newest checkpoint (read-your-writes).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MoneyRequestRecord } from '../../../../../contracts/transactions.ts';
import { apiData } from '../../../lib/api-client.ts';

export type { MoneyRequestRecord };

export function fetchRequests(): Promise<MoneyRequestRecord[]> {
  return apiData<MoneyRequestRecord[]>('/api/requests/get-all-requests-by-user', {
    readYourWrites: true,
    fallbackMessage: 'Failed to fetch requests',
  });
}

export const requestsQuery = queryOptions({ queryKey: ['ledger', 'requests'], queryFn: fetchRequests });

export function useRequests() {
  return useQuery(requestsQuery);
}
