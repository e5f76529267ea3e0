/**
 * Approve (with the transaction PIN) or reject a received request (spec sections 4, 8),
 * with one Idempotency-Key per decision; afterwards the requests and the user refresh.
 */
import { useQueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { useSubmissionKey } from '../../../lib/idempotency.ts';
import { pinRefusal } from '../../../lib/pin-refusal.ts';
import { refreshAfterCommand } from '../../../lib/query-client.ts';
import { useUpdateRequestStatus } from '../api/update-request-status.ts';

const TEXT = {
  accepted: {
    ok: 'requests.approved',
    failed: 'requests.approveFailed',
    thrown: 'requests.approveThrown',
  },
  rejected: {
    ok: 'requests.rejected',
    failed: 'requests.rejectFailed',
    thrown: 'requests.rejectThrown',
  },
} as const;

/** A decision made, or refused; a refused PIN's reason goes under the approve dialog's PIN field. */
export type DecisionOutcome = { ok: true } | { ok: false; pinReason?: string | undefined };

export function useDecision() {
  const update = useUpdateRequestStatus();
  const keys = useSubmissionKey();
  const notify = useToast();
  const client = useQueryClient();

  async function decide(
    requestId: string,
    status: 'accepted' | 'rejected',
    transactionPin?: string,
  ): Promise<DecisionOutcome> {
    const body = { requestId, status, ...(transactionPin ? { transactionPin } : {}) };
    try {
      const reply = await update.mutateAsync({ body, idempotencyKey: keys.keyFor(body) });
      keys.complete();
      if (!reply.success) {
        const pinReason = pinRefusal(reply);
        if (pinReason) return { ok: false, pinReason };
        notify({ tone: 'error', message: reply.message || i18next.t(TEXT[status].failed), durationMs: 5000 });
        return { ok: false };
      }
      notify({ tone: 'success', message: i18next.t(TEXT[status].ok), durationMs: 3000, result: true });
      await refreshAfterCommand(client);
      return { ok: true };
    } catch {
      notify({ tone: 'error', message: i18next.t(TEXT[status].thrown), durationMs: 5000 });
      return { ok: false };
    }
  }

  return { decide, pending: update.isPending, pendingId: update.variables?.body.requestId };
}
