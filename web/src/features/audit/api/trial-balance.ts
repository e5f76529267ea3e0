/**
 * GET /api/admin/trial-balance and POST /api/admin/trial-balance/verify (admin): postings
 * per account kind and in total, funding sources, the last verify run; and a new run.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiData, apiRequest, type ApiReply } from '../../../lib/api-client.ts';
import type { TrialBalance } from './types.ts';

export type VerifyRun = NonNullable<TrialBalance['lastVerify']>;

export function fetchTrialBalance(): Promise<TrialBalance> {
  return apiData<TrialBalance>('/api/admin/trial-balance', { fallbackMessage: 'Failed to fetch the trial balance' });
}

export const trialBalanceQuery = queryOptions({
  queryKey: ['ledger', 'admin', 'trial-balance'],
  queryFn: fetchTrialBalance,
});

export function useTrialBalance() {
  return useQuery(trialBalanceQuery);
}

export function runVerify(): Promise<ApiReply<VerifyRun>> {
  return apiRequest('/api/admin/trial-balance/verify', { method: 'POST', body: {} });
}

export function useRunVerify() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: runVerify,
    onSettled: async () => client.invalidateQueries({ queryKey: trialBalanceQuery.queryKey }),
  });
}
