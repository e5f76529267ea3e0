/**
 * POST /api/users/get-user-info: the signed-in user (the session guard's call). Empty JSON
 * body, as the spec's client sends it; waits for the newest checkpoint so a balance shown
 * after a command already includes it.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserRecord } from '../../../../contracts/users.ts';
import { apiData } from '../api-client.ts';
import { currentUserKey } from '../query-client.ts';

export type { UserRecord };

export function fetchCurrentUser(): Promise<UserRecord> {
  return apiData<UserRecord>('/api/users/get-user-info', {
    method: 'POST',
    body: {},
    readYourWrites: true,
    fallbackMessage: 'Request failed',
  });
}

export function currentUserQuery(enabled: boolean) {
  return queryOptions({
    queryKey: currentUserKey,
    queryFn: fetchCurrentUser,
    enabled,
    // The client's retry policy (query-client.ts): a 401 or 403 at once, a 429 after its Retry-After.
  });
}

export function useCurrentUserQuery(enabled: boolean) {
  return useQuery(currentUserQuery(enabled));
}
