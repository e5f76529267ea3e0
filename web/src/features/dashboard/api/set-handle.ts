/**
 * POST /api/users/set-handle: the user's handle (`asha@wallet`), chosen once. Refreshes the
 * signed-in user, whose record carries it.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChooseHandlePayload } from '../../../../../contracts/payees.ts';
import { apiRequest, type ApiReply } from '../../../lib/api-client.ts';
import { currentUserKey } from '../../../lib/query-client.ts';

export function setHandle(body: ChooseHandlePayload): Promise<ApiReply<{ handle: string }>> {
  return apiRequest('/api/users/set-handle', { method: 'POST', body });
}

export function useSetHandle() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: setHandle,
    onSuccess: async (reply) => {
      if (reply.success) await client.invalidateQueries({ queryKey: currentUserKey });
    },
  });
}
