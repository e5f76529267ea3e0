/**
 * POST /api/transactions/transfer-to-payee with an Idempotency-Key: a payment to a mobile
 * number or a handle, which the server resolves to the account; answers data.checkpoint.
 */
import { useMutation } from '@tanstack/react-query';
import type { PayeeTransferPayload } from '../../../../../contracts/payees.ts';
import { apiRequest, type ApiReply } from '../../../lib/api-client.ts';

export function transferToPayee(input: {
  body: PayeeTransferPayload;
  idempotencyKey: string;
}): Promise<ApiReply<{ checkpoint?: string }>> {
  return apiRequest('/api/transactions/transfer-to-payee', {
    method: 'POST',
    body: input.body,
    idempotencyKey: input.idempotencyKey,
  });
}

export function useTransferToPayee() {
  return useMutation({ mutationFn: transferToPayee });
}
