/**
 * Approve or reject (withdraw, when it is one's own) a money action waiting for a second
 * admin, with the reply's toast.
 */
import { useToast } from '../../../components/ui/Toaster.tsx';
import { useDecideApproval, type ApprovalRecord } from '../api/approvals.ts';

export function useApprovalDecision(currentUserId: string) {
  const decide = useDecideApproval();
  const notify = useToast();
  async function run(row: ApprovalRecord, decision: 'approve' | 'reject'): Promise<void> {
    try {
      const reply = await decide.mutateAsync({
        id: row.id,
        decision,
        ...(decision === 'reject'
          ? { reason: row.requestedBy === currentUserId ? 'Withdrawn by the requester' : 'Rejected on review' }
          : {}),
      });
      notify({
        tone: reply.success ? 'success' : 'error',
        message: reply.message || (reply.success ? 'Done' : 'The request could not be decided'),
        durationMs: 5000,
      });
    } catch {
      notify({ tone: 'error', message: 'Network error. Please check your connection and try again.' });
    }
  }
  return { run, pending: decide.isPending };
}
