/**
 * GET /api/users/get-all-users (admin): the accounts an admin can audit (same cache entry
 * as the Users page: features do not import each other, the query key is shared).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserRecord } from '../../../../../contracts/users.ts';
import { apiData } from '../../../lib/api-client.ts';

export type { UserRecord };

export const auditUsersQuery = queryOptions({
  queryKey: ['admin', 'users'],
  queryFn: () =>
    apiData<UserRecord[]>('/api/users/get-all-users', {
      readYourWrites: true,
      fallbackMessage: 'Failed to fetch users',
    }),
});

export function useAuditUsers() {
  return useQuery(auditUsersQuery);
}
