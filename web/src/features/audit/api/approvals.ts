/**
 * GET /api/admin/approvals and POST /api/admin/approvals/:id/approve|reject (admin): money
 * actions above the approval threshold waiting for a second admin, and the decision on
 * one. Approving runs the action, so every ledger read refreshes afterwards.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApprovalRecord } from '../../../../../contracts/admin.ts';
import { apiData, apiRequest, type ApiReply } from '../../../lib/api-client.ts';

export type { ApprovalRecord };

export function fetchPendingApprovals(): Promise<ApprovalRecord[]> {
  return apiData<ApprovalRecord[]>('/api/admin/approvals', {
    query: { state: 'pending' },
    fallbackMessage: 'Failed to fetch approval requests',
  });
}

export const pendingApprovalsQuery = queryOptions({
  queryKey: ['ledger', 'admin', 'approvals', 'pending'],
  queryFn: fetchPendingApprovals,
});

export function usePendingApprovals() {
  return useQuery(pendingApprovalsQuery);
}

export interface ApprovalDecision {
  id: string;
  decision: 'approve' | 'reject';
  reason?: string;
}

export function decideApproval(input: ApprovalDecision): Promise<ApiReply<unknown>> {
  return apiRequest(`/api/admin/approvals/${encodeURIComponent(input.id)}/${input.decision}`, {
    method: 'POST',
    body: input.reason ? { reason: input.reason } : {},
  });
}

export function useDecideApproval() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: decideApproval,
    onSettled: async () => client.invalidateQueries({ queryKey: ['ledger'] }),
  });
}
