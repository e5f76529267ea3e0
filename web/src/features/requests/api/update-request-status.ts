/**
 * POST /api/requests/update-request-status with an Idempotency-Key: the receiver accepts
 * (with the transaction PIN; an accepted request pays the requester) or rejects.
 */
import { useMutation } from '@tanstack/react-query';
import { apiRequest, type ApiReply } from '../../../lib/api-client.ts';

export interface UpdateRequestBody {
  requestId: string;
  status: 'accepted' | 'rejected';
  transactionPin?: string;
}

export function updateRequestStatus(input: {
  body: UpdateRequestBody;
  idempotencyKey: string;
}): Promise<ApiReply<{ checkpoint?: string }>> {
  return apiRequest('/api/requests/update-request-status', {
    method: 'POST',
    body: input.body,
    idempotencyKey: input.idempotencyKey,
  });
}

export function useUpdateRequestStatus() {
  return useMutation({ mutationFn: updateRequestStatus });
}
