/**
 * GET /api/users/get-all-users (admin): every user, never a hash.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserRecord } from '../../../../../contracts/users.ts';
import { apiData } from '../../../lib/api-client.ts';

export type { UserRecord };

export function fetchAllUsers(): Promise<UserRecord[]> {
  return apiData<UserRecord[]>('/api/users/get-all-users', {
    readYourWrites: true,
    fallbackMessage: 'Failed to fetch users',
  });
}

export const allUsersQuery = queryOptions({ queryKey: ['admin', 'users'], queryFn: fetchAllUsers });

export function useAllUsers() {
  return useQuery(allUsersQuery);
}
