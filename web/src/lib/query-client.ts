/**
 * The react-query client and the shared key roots. Every read derived from the ledger
 * (balances, history, requests) lives under `ledgerKey`, so a command refreshes them all
 * at once with read-your-writes (lib/checkpoint.ts) instead of reloading the page.
 *
 * Retries: a refusal (4xx) is an answer, never retried, except 429 and 503, which are
 * retried once the reply's Retry-After has passed (the rate limit's window, a failover);
 * a lost connection or another 5xx once, after a second. Reads stay fresh for a minute:
 * commands refresh what they change, so a page revisited within a minute costs no call
 * (the spec's limit is 100 calls per 15 minutes).
 */
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client.ts';
import { DEFAULT_RETRY_AFTER_SECONDS } from './rate-limit.ts';

export const ledgerKey = ['ledger'] as const;
export const currentUserKey = ['ledger', 'current-user'] as const;

export const DEFAULT_STALE_MS = 60_000;
/** A rate-limited read retries this often at most before it shows its error. */
export const MAX_WAITING_RETRIES = 8;
const OTHER_RETRY_MS = 1_000;

function waitsForRetryAfter(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.status === 429 || error.status === 503);
}

export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (waitsForRetryAfter(error)) return failureCount < MAX_WAITING_RETRIES;
  if (error instanceof ApiError && error.status < 500) return false;
  return failureCount < 1;
}

/** Milliseconds before the next attempt: the reply's Retry-After, else a second. */
export function retryDelay(_failureCount: number, error: unknown): number {
  if (!waitsForRetryAfter(error)) return OTHER_RETRY_MS;
  // A quarter second past the reset: Retry-After is whole seconds, rounded up by the server.
  return (error.retryAfter ?? DEFAULT_RETRY_AFTER_SECONDS) * 1000 + 250;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, retryDelay, refetchOnWindowFocus: false, staleTime: DEFAULT_STALE_MS },
      mutations: { retry: false },
    },
  });
}

/** After a command: every ledger-derived query refetches, waiting for the command's checkpoint. */
export async function refreshAfterCommand(client: QueryClient): Promise<void> {
  await client.invalidateQueries({ queryKey: ledgerKey });
}
