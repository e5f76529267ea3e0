/**
 * GET /api/admin/trial-balance and POST /api/admin/trial-balance/verify (admin): postings
 * per account kind and in total, funding sources, the last verify run; and a new run, started
 * in the background (`Prefer: respond-async`): its result arrives as the live `verify` event,
 * written into the trial balance's `lastVerify` (app/live-cache.ts), so nothing waits on a
 * long reply or polls.
 */
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { apiData, apiRequest, type ApiReply } from '../../../lib/api-client.ts';
import type { TrialBalance, VerifyStarted } from './types.ts';

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

export function startVerify(): Promise<ApiReply<VerifyStarted>> {
  return apiRequest('/api/admin/trial-balance/verify', { method: 'POST', body: {}, prefer: 'respond-async' });
}

export function useStartVerify() {
  return useMutation({ mutationFn: startVerify });
}

/** A verify event's run into the trial balance, when it is newer than the one shown. */
export function withVerifyRun(balance: TrialBalance | undefined, run: VerifyRun): TrialBalance | undefined {
  if (!balance) return balance;
  const shown = balance.lastVerify;
  return shown && BigInt(shown.id) >= BigInt(run.id) ? balance : { ...balance, lastVerify: run };
}
