/**
 * POST /api/requests/send-request with an Idempotency-Key: ask another account for money.
 */
import { useMutation } from '@tanstack/react-query';
import type { SendRequestPayload } from '../../../../../contracts/transactions.ts';
import { apiRequest, type ApiReply } from '../../../lib/api-client.ts';

export function sendRequest(input: {
  body: SendRequestPayload;
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
