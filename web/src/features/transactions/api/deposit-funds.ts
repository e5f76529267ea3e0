/**
 * POST /api/transactions/deposit-funds with an Idempotency-Key; answers data.checkpoint.
 * Bank transfer and UPI are submitted as pending; card carries the provider's payment method.
 */
import { useMutation } from '@tanstack/react-query';
import type { DepositPayload } from '../../../../../contracts/transactions.ts';
import { apiRequest, type ApiReply } from '../../../lib/api-client.ts';

/**
 * The deposit schema's input, plus the fields the spec's client sends and the server does
 * not read (the wallet is the signed-in user's; the server decides every status).
 */
export type DepositBody = DepositPayload & {
  userId: string;
  status: 'pending' | 'success';
  type: 'deposit';
  timestamp: string;
};

export function depositFunds(input: {
  body: DepositBody;
  idempotencyKey: string;
}): Promise<ApiReply<{ checkpoint?: string }>> {
  return apiRequest('/api/transactions/deposit-funds', {
    method: 'POST',
    body: input.body,
    idempotencyKey: input.idempotencyKey,
  });
}

export function useDepositFunds() {
  return useMutation({ mutationFn: depositFunds });
}
