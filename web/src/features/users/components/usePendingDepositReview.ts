/**
 * Settling or failing a pending deposit from its row, or approving another admin's settlement
 * of it: each settle or fail carries its own Idempotency-Key (an approval is keyed by the
 * approval itself), a 202 (filed for a second admin's approval) is told apart from done, the
 * server's refusal is shown as it words it, and the ledger's queries refresh afterwards.
 */
import { useQueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { useState } from 'react';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { NetworkError, type ApiReply } from '../../../lib/api-client.ts';
import { newUuid } from '../../../lib/idempotency.ts';
import { refreshAfterCommand } from '../../../lib/query-client.ts';
import { useApproveSettlement } from '../api/approve-settlement.ts';
import { useFailDeposit } from '../api/fail-deposit.ts';
import type { PendingDeposit } from '../api/get-pending-deposits.ts';
import { useSettleDeposit } from '../api/settle-deposit.ts';

export interface PendingDepositReview {
  settle: (deposit: PendingDeposit) => Promise<void>;
  /** A second admin approves the settlement another admin filed (it then runs as theirs). */
  approve: (deposit: PendingDeposit) => Promise<void>;
  /** The deposit whose failure reason is being asked for. */
  failing: PendingDeposit | null;
  askFailure: (deposit: PendingDeposit | null) => void;
  /** true when the deposit was marked failed (the dialog closes). */
  fail: (reason: string) => Promise<boolean>;
  busyWith: string | null;
}

export function usePendingDepositReview(): PendingDepositReview {
  const settleDeposit = useSettleDeposit();
  const approveSettlement = useApproveSettlement();
  const failDeposit = useFailDeposit();
  const notify = useToast();
  const client = useQueryClient();
  const [failing, askFailure] = useState<PendingDeposit | null>(null);
  const [busyWith, setBusyWith] = useState<string | null>(null);

  async function run(depositId: string, action: () => Promise<ApiReply<unknown>>): Promise<boolean> {
    setBusyWith(depositId);
    try {
      const reply = await action();
      if (!reply.success) {
        notify({ tone: 'error', message: reply.message || i18next.t('users.depositFailed'), durationMs: 6000 });
        return false;
      }
      // 202: filed for a second admin's approval, not done yet.
      const filed = reply.status === 202;
      notify({ tone: filed ? 'info' : 'success', message: reply.message, durationMs: filed ? 8000 : undefined });
      await refreshAfterCommand(client);
      return true;
    } catch (error) {
      notify({
        tone: 'error',
        message: error instanceof NetworkError ? i18next.t('users.networkError') : i18next.t('users.depositFailed'),
      });
      return false;
    } finally {
      setBusyWith(null);
    }
  }

  return {
    settle: async (deposit) => {
      await run(deposit.depositId, () =>
        settleDeposit.mutateAsync({ depositId: deposit.depositId, idempotencyKey: newUuid() }),
      );
    },
    approve: async (deposit) => {
      const approvalId = deposit.awaitingApproval?.approvalId;
      if (approvalId) await run(deposit.depositId, () => approveSettlement.mutateAsync({ approvalId }));
    },
    failing,
    askFailure,
    fail: async (reason) => {
      if (!failing) return false;
      const done = await run(failing.depositId, () =>
        failDeposit.mutateAsync({ depositId: failing.depositId, reason, idempotencyKey: newUuid() }),
      );
      if (done) askFailure(null);
      return done;
    },
    busyWith,
  };
}
