/**
 * POST /api/requests/send-request with an Idempotency-Key: ask another account for money.
 */
import { useMutation } from '@tanstack/react-query';
import { apiRequest, type ApiReply } from '../../../lib/api-client.ts';

export interface SendRequestBody {
  receiver: string;
  amount: number;
  reference: string;
}

export function sendRequest(input: {
  body: SendRequestBody;
  idempotencyKey: string;
}): Promise<ApiReply<{ checkpoint?: string }>> {
  return apiRequest('/api/requests/send-request', {
    method: 'POST',
    body: input.body,
    idempotencyKey: input.idempotencyKey,
  });
}

export function useSendRequest() {
  return useMutation({ mutationFn: sendRequest });
}
