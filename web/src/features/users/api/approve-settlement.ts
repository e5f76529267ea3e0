/**
 * POST /api/admin/approvals/:id/approve (admin): a second admin approves a settlement another
 * admin filed (decision 0011); the settlement then runs as the approver's action.
 */
import { useMutation } from '@tanstack/react-query';
import { apiRequest, type ApiReply } from '../../../lib/api-client.ts';

export function approveSettlement(input: { approvalId: string }): Promise<ApiReply<{ checkpoint?: string }>> {
  return apiRequest(`/api/admin/approvals/${encodeURIComponent(input.approvalId)}/approve`, {
    method: 'POST',
    body: {},
  });
}

export function useApproveSettlement() {
  return useMutation({ mutationFn: approveSettlement });
}
