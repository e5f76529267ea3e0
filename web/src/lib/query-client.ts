/**
 * The react-query client and the shared key roots. Every read derived from the ledger
 * (balances, history, requests) lives under `ledgerKey`, so a command refreshes them all
 * at once with read-your-writes (lib/checkpoint.ts) instead of reloading the page.
 */
import { QueryClient } from '@tanstack/react-query';

export const ledgerKey = ['ledger'] as const;
export const currentUserKey = ['ledger', 'current-user'] as const;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 10_000 },
      mutations: { retry: false },
    },
  });
}

/** After a command: every ledger-derived query refetches, waiting for the command's checkpoint. */
export async function refreshAfterCommand(client: QueryClient): Promise<void> {
  await client.invalidateQueries({ queryKey: ledgerKey });
}
