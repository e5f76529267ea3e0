/**
 * Admin review of a pending bank-transfer or UPI deposit: by its transaction id (the
 * customer's history shows it), settle it (the wallet is credited) or mark it failed with
 * a reason.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactElement } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { TextAreaField, TextField } from '../../../components/ui/Field.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import { useToast } from '../../../components/ui/Toaster.tsx';
import type { ApiReply } from '../../../lib/api-client.ts';
import { newUuid } from '../../../lib/idempotency.ts';
import { refreshAfterCommand } from '../../../lib/query-client.ts';
import { useFailDeposit } from '../api/fail-deposit.ts';
import { useSettleDeposit } from '../api/settle-deposit.ts';

export function ReviewDepositDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}): ReactElement {
  const [depositId, setDepositId] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ depositId?: string; reason?: string }>({});
  const [key, setKey] = useState(newUuid);
  const settle = useSettleDeposit();
  const fail = useFailDeposit();
  const notify = useToast();
  const client = useQueryClient();

  function close(next: boolean): void {
    if (!next) {
      setDepositId('');
      setReason('');
      setErrors({});
      setKey(newUuid());
    }
    onOpenChange(next);
  }

  async function run(action: () => Promise<ApiReply<unknown>>): Promise<void> {
    try {
      const reply = await action();
      if (!reply.success) {
        notify({ tone: 'error', message: reply.message || 'The deposit could not be updated', durationMs: 5000 });
        setKey(newUuid());
        return;
      }
      // 202: filed for a second admin's approval, not done yet.
      notify({
        tone: reply.status === 202 ? 'info' : 'success',
        message: reply.message,
        durationMs: reply.status === 202 ? 6000 : undefined,
      });
      close(false);
      await refreshAfterCommand(client);
    } catch {
      notify({ tone: 'error', message: 'Network error. Please check your connection and try again.' });
    }
  }

  function onSettle(): void {
    if (!depositId.trim()) return setErrors({ depositId: 'depositId is required' });
    void run(() => settle.mutateAsync({ depositId: depositId.trim(), idempotencyKey: key }));
  }
  function onFail(): void {
    const found = {
      depositId: depositId.trim() ? undefined : 'depositId is required',
      reason: reason.trim().length >= 3 ? undefined : 'A reason of at least 3 characters is required',
    };
    if (found.depositId || found.reason) return setErrors(found);
    void run(() => fail.mutateAsync({ depositId: depositId.trim(), reason: reason.trim(), idempotencyKey: key }));
  }

  const busy = settle.isPending || fail.isPending;
  return (
    <Modal
      open={open}
      onOpenChange={close}
      title="Review pending deposit"
      description="Bank transfer and UPI deposits wait for an admin to confirm the money arrived."
      busy={busy}
    >
      <div className="form-stack">
        <TextField
          label="Deposit transaction ID"
          value={depositId}
          onValueChange={(value) => {
            setDepositId(value);
            setErrors({});
          }}
          error={errors.depositId}
          autoComplete="off"
        />
        <TextAreaField
          label="Reason (only to mark as failed)"
          maxLength={500}
          value={reason}
          onValueChange={(value) => {
            setReason(value);
            setErrors({});
          }}
          error={errors.reason}
        />
        <div className="modal-actions">
          <Button variant="secondary" onClick={() => close(false)}>
            Cancel
          </Button>
          <Button variant="danger" onClick={onFail} disabled={busy}>
            Mark failed
          </Button>
          <Button variant="success" onClick={onSettle} disabled={busy}>
            Settle deposit
          </Button>
        </div>
      </div>
    </Modal>
  );
}
