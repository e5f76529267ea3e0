/**
 * POST /api/admin/reverse (admin): reverses a completed transfer, settled deposit or paid
 * money request by its stream, with a reason; every ledger read refreshes afterwards.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type ApiReply } from '../../../lib/api-client.ts';

export interface ReverseInput {
  streamId: string;
  reason: string;
}

export function reverseTransaction(
  input: ReverseInput,
): Promise<ApiReply<{ streamId: string; position: string | null; checkpoint?: string }>> {
  return apiRequest('/api/admin/reverse', { method: 'POST', body: input });
}

export function useReverseTransaction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: reverseTransaction,
    onSuccess: async (reply) => {
      if (reply.success) await client.invalidateQueries({ queryKey: ['ledger'] });
    },
  });
}
