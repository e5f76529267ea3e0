/**
 * POST /api/transactions/fail-deposit (admin): a pending deposit never arrived; it is
 * closed as failed with a reason.
 */
import { useMutation } from '@tanstack/react-query';
import { apiRequest, type ApiReply } from '../../../lib/api-client.ts';

export function failDeposit(input: {
  depositId: string;
  reason: string;
  idempotencyKey: string;
}): Promise<ApiReply<{ checkpoint?: string }>> {
  return apiRequest('/api/transactions/fail-deposit', {
    method: 'POST',
    body: { depositId: input.depositId, reason: input.reason },
    idempotencyKey: input.idempotencyKey,
  });
}

export function useFailDeposit() {
  return useMutation({ mutationFn: failDeposit });
}
