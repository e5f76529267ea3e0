/**
 * GET /api/admin/audit-trail (admin): admin actions newest first, keyset-paged by id
 * (`before=<nextBefore>`).
 */
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiData } from '../../../lib/api-client.ts';
import type { AuditTrailPage } from './types.ts';

const PAGE_ROWS = 25;

export function fetchAuditTrail(before: string | undefined): Promise<AuditTrailPage> {
  return apiData<AuditTrailPage>('/api/admin/audit-trail', {
    query: { before, limit: String(PAGE_ROWS) },
    fallbackMessage: 'Failed to fetch the audit trail',
  });
}

export const auditTrailQuery = infiniteQueryOptions({
  queryKey: ['ledger', 'admin', 'audit-trail'],
  queryFn: ({ pageParam }) => fetchAuditTrail(pageParam),
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (page) => page.nextBefore ?? undefined,
});

export function useAuditTrail() {
  return useInfiniteQuery(auditTrailQuery);
}
