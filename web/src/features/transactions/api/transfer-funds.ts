/**
 * POST /api/transactions/transfer-funds with an Idempotency-Key; answers data.checkpoint.
 */
import { useMutation } from '@tanstack/react-query';
import type { TransferPayload } from '../../../../../contracts/transactions.ts';
import { apiRequest, type ApiReply } from '../../../lib/api-client.ts';

/** The transfer schema's input, plus the two fields the spec's client sends and the server ignores. */
export type TransferBody = TransferPayload & { type: 'debit'; status: 'success' };

export function transferFunds(input: {
  body: TransferBody;
  idempotencyKey: string;
}): Promise<ApiReply<{ checkpoint?: string }>> {
  return apiRequest('/api/transactions/transfer-funds', {
    method: 'POST',
    body: input.body,
    idempotencyKey: input.idempotencyKey,
  });
}

export function useTransferFunds() {
  return useMutation({ mutationFn: transferFunds });
}
