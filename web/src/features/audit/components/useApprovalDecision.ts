/**
 * Approve or reject (withdraw, when it is one's own) a money action waiting for a second
 * admin, with the reply's toast.
 */
import i18next from 'i18next';
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
          ? // Recorded in the audit trail, which stays English whatever the admin's screen shows.
            { reason: row.requestedBy === currentUserId ? 'Withdrawn by the requester' : 'Rejected on review' }
          : {}),
      });
      notify({
        tone: reply.success ? 'success' : 'error',
        message: reply.message || i18next.t(reply.success ? 'audit.decided' : 'audit.decideFailed'),
        durationMs: 5000,
      });
    } catch {
      notify({ tone: 'error', message: i18next.t('audit.networkError') });
    }
  }
  return { run, pending: decide.isPending };
}
