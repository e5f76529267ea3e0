/**
 * GET /api/admin/disputes (?status) and POST /api/admin/disputes/:id/reverse|reject (admin):
 * the disputes queue and an admin's resolution of one. A reversal may wait for a second admin
 * (202): the reply says so and the approvals list has it. The `admin-disputes` live event
 * refreshes the queue (app/live-cache.ts).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { DisputeRecord, DisputeStatus, disputeReversalSchema } from '../../../../../contracts/disputes.ts';
import { apiData, apiRequest } from '../../../lib/api-client.ts';

export type { DisputeRecord, DisputeStatus };
export type DisputeFilter = DisputeStatus | 'all';
type DisputeReversal = z.output<typeof disputeReversalSchema>;

export function fetchDisputes(status: DisputeFilter): Promise<DisputeRecord[]> {
  return apiData<DisputeRecord[]>('/api/admin/disputes', {
    query: { status },
    fallbackMessage: 'Failed to fetch disputes',
  });
}

export function disputesQuery(status: DisputeFilter) {
  return queryOptions({ queryKey: ['admin', 'disputes', status], queryFn: () => fetchDisputes(status) });
}

export function useDisputes(status: DisputeFilter) {
  return useQuery(disputesQuery(status));
}

export interface DisputeDecision {
  id: string;
  decision: 'reverse' | 'reject';
  reason: string;
}

/** The server's answer: its message (said to the admin) and whether the reversal waits for a second admin. */
export interface DisputeDecisionOutcome {
  message: string;
  awaitingApproval: boolean;
}

export async function decideDispute(input: DisputeDecision): Promise<DisputeDecisionOutcome> {
  const reply = await apiRequest<DisputeRecord | DisputeReversal>(
    `/api/admin/disputes/${encodeURIComponent(input.id)}/${input.decision}`,
    { method: 'POST', body: { reason: input.reason } },
  );
  if (!reply.success) throw new Error(reply.message || 'The dispute could not be decided');
  return { message: reply.message, awaitingApproval: reply.status === 202 };
}

export function useDecideDispute() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: decideDispute,
    onSettled: async () => {
      await client.invalidateQueries({ queryKey: ['admin', 'disputes'] });
      await client.invalidateQueries({ queryKey: ['ledger'] });
    },
  });
}
