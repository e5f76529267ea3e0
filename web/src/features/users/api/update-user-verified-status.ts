/**
 * POST /api/users/update-user-verified-status (admin): activate (verify) or suspend a
 * user; the list refreshes afterwards. Our activation carries the document check's
 * confirmation, which the server records with it (contracts/identity-check.ts).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type ApiReply } from '../../../lib/api-client.ts';
import { allUsersQuery } from './get-all-users.ts';

export function updateUserVerifiedStatus(body: {
  selectedUser: string;
  isVerified: boolean;
  /** An activation from the identity check: the admin ticked that the document was checked. */
  documentChecked?: boolean;
}): Promise<ApiReply<unknown>> {
  return apiRequest('/api/users/update-user-verified-status', { method: 'POST', body });
}

export function useUpdateUserVerifiedStatus() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateUserVerifiedStatus,
    onSuccess: async (reply) => {
      if (reply.success) await client.invalidateQueries({ queryKey: allUsersQuery.queryKey });
    },
  });
}
