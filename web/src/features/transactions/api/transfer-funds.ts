/**
 * POST /api/transactions/transfer-funds with an Idempotency-Key; answers data.checkpoint.
 */
import { useMutation } from '@tanstack/react-query';
import { apiRequest, type ApiReply } from '../../../lib/api-client.ts';

export interface TransferBody {
  receiver: string;
  amount: number;
  reference: string;
  transactionPin: string;
  sender: string;
  type: 'debit';
  status: 'success';
}

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
