/**
 * GET /api/admin/accounts/:accountId/statement (admin): every posting of one account with
 * its running balance, keyset-paged by sequence ("Load more" asks for the next page).
 */
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiData } from '../../../lib/api-client.ts';
import { dayToIso, type StatementFilters, type StatementPage } from './types.ts';

export const STATEMENT_PAGE_ROWS = 50;

export function statementQueryString(filters: StatementFilters): Record<string, string | undefined> {
  return { from: dayToIso(filters.from), to: dayToIso(filters.to, true), type: filters.type || undefined };
}

export function fetchStatement(
  accountId: string,
  filters: StatementFilters,
  after: string | undefined,
): Promise<StatementPage> {
  return apiData<StatementPage>(`/api/admin/accounts/${encodeURIComponent(accountId)}/statement`, {
    query: { ...statementQueryString(filters), after, limit: String(STATEMENT_PAGE_ROWS) },
    readYourWrites: true,
    fallbackMessage: 'Failed to fetch the statement',
  });
}

/**
 * `awaitPosition`: the statement projection is asynchronous and this route takes no
 * read-your-writes checkpoint, so after a reversal the page polls until a line at or past
 * the reversal's position is loaded (or the wait is given up by the caller).
 */
export function statementQuery(accountId: string, filters: StatementFilters, awaitPosition: string | null = null) {
  return infiniteQueryOptions({
    queryKey: ['ledger', 'admin', 'statement', accountId, filters],
    queryFn: ({ pageParam }) => fetchStatement(accountId, filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextAfter ?? undefined,
    enabled: accountId !== '',
    refetchInterval: (query) =>
      awaitPosition !== null && !reached(query.state.data?.pages ?? [], awaitPosition) ? STATEMENT_POLL_MS : false,
  });
}

const STATEMENT_POLL_MS = 400;

export function reached(pages: readonly StatementPage[], position: string): boolean {
  return pages.some((page) => page.items.some((line) => BigInt(line.position) >= BigInt(position)));
}

export function useStatement(accountId: string, filters: StatementFilters, awaitPosition: string | null = null) {
  return useInfiniteQuery(statementQuery(accountId, filters, awaitPosition));
}
