/**
 * POST /api/transactions/deposit-funds with an Idempotency-Key; answers data.checkpoint.
 * Bank transfer and UPI are submitted as pending; card carries the provider's payment method.
 */
import { useMutation } from '@tanstack/react-query';
import { apiRequest, type ApiReply } from '../../../lib/api-client.ts';

export interface DepositBody {
  userId: string;
  amount: number;
  reference: string;
  transactionPin: string;
  paymentMethod: 'bank_transfer' | 'upi' | 'card';
  status: 'pending' | 'success';
  type: 'deposit';
  timestamp: string;
  bankDetails?: { accountNumber: string; ifscCode: string; bankName: string };
  upiDetails?: { upiId: string };
  paymentMethodId?: string;
}

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
