/**
 * POST /api/transactions/settle-deposit (admin): a pending bank-transfer or UPI deposit
 * has arrived; the wallet is credited.
 */
import { useMutation } from '@tanstack/react-query';
import { apiRequest, type ApiReply } from '../../../lib/api-client.ts';

export function settleDeposit(input: {
  depositId: string;
  idempotencyKey: string;
}): Promise<ApiReply<{ checkpoint?: string }>> {
  return apiRequest('/api/transactions/settle-deposit', {
    method: 'POST',
    body: { depositId: input.depositId },
    idempotencyKey: input.idempotencyKey,
  });
}

export function useSettleDeposit() {
  return useMutation({ mutationFn: settleDeposit });
}
