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
 * No polling after a reversal: its reply leaves the server once every projection has applied
 * it (api/read-after-reply.ts) and the mutation invalidates every ledger read, so the next
 * fetch already holds the reversal line.
 */
export function statementQuery(accountId: string, filters: StatementFilters) {
  return infiniteQueryOptions({
    queryKey: ['ledger', 'admin', 'statement', accountId, filters],
    queryFn: ({ pageParam }) => fetchStatement(accountId, filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextAfter ?? undefined,
    enabled: accountId !== '',
  });
}

export function useStatement(accountId: string, filters: StatementFilters) {
  return useInfiniteQuery(statementQuery(accountId, filters));
}
