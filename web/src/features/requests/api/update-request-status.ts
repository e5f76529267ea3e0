/**
 * POST /api/requests/update-request-status with an Idempotency-Key: the receiver accepts
 * (with the transaction PIN; an accepted request pays the requester) or rejects.
 */
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { updateRequestStatusSchema } from '../../../../../contracts/transactions.ts';
import { apiRequest, type ApiReply } from '../../../lib/api-client.ts';

export type UpdateRequestBody = z.input<typeof updateRequestStatusSchema>;

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
