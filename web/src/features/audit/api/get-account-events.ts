/**
 * GET /api/admin/accounts/:accountId/events (admin): the raw events of an account's
 * streams with their metadata, keyset-paged by position.
 */
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiData } from '../../../lib/api-client.ts';
import type { RawEventPage } from './types.ts';

const PAGE_ROWS = 50;

export function fetchAccountEvents(accountId: string, after: string | undefined): Promise<RawEventPage> {
  return apiData<RawEventPage>(`/api/admin/accounts/${encodeURIComponent(accountId)}/events`, {
    query: { after, limit: String(PAGE_ROWS) },
    readYourWrites: true,
    fallbackMessage: 'Failed to fetch the events',
  });
}

export function accountEventsQuery(accountId: string) {
  return infiniteQueryOptions({
    queryKey: ['ledger', 'admin', 'account-events', accountId],
    queryFn: ({ pageParam }) => fetchAccountEvents(accountId, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextAfter ?? undefined,
    enabled: accountId !== '',
  });
}

export function useAccountEvents(accountId: string) {
  return useInfiniteQuery(accountEventsQuery(accountId));
}
