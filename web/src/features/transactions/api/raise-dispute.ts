/**
 * POST /api/transactions/:transactionId/dispute: the payer disputes their payment with a
 * reason. Every ledger read refreshes afterwards (the payment's page shows the dispute).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DisputeRecord, RaiseDisputePayload } from '../../../../../contracts/disputes.ts';
import { apiData } from '../../../lib/api-client.ts';

export interface RaiseDisputeInput {
  payload: RaiseDisputePayload;
  /** One per submission (lib/idempotency.ts): a retried submission raises one dispute. */
  idempotencyKey: string;
}

export function raiseDispute(transactionId: string, input: RaiseDisputeInput): Promise<DisputeRecord> {
  return apiData<DisputeRecord>(`/api/transactions/${encodeURIComponent(transactionId)}/dispute`, {
    method: 'POST',
    body: input.payload,
    idempotencyKey: input.idempotencyKey,
    fallbackMessage: 'Failed to raise the dispute',
  });
}

export function useRaiseDispute(transactionId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: RaiseDisputeInput) => raiseDispute(transactionId, input),
    onSettled: async () => client.invalidateQueries({ queryKey: ['ledger'] }),
  });
}
