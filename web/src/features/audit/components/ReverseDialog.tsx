/**
 * The reversal confirmation (radix Dialog through Modal): what will be reversed, a
 * mandatory reason of 3-500 characters (the server's rule, checked here first so the
 * message is immediate), and the API's message when it refuses (e.g. it would overdraw).
 */
import { useState, type FormEvent, type ReactElement } from 'react';
import { MAX_REASON_LENGTH, reasonSchema } from '../../../../../contracts/admin.ts';
import { firstMessage } from '../../../../../contracts/fields.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { TextAreaField } from '../../../components/ui/Field.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import { Notice } from '../../../components/ui/misc.tsx';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { NetworkError } from '../../../lib/api-client.ts';
import { useReverseTransaction } from '../api/reverse-transaction.ts';

/** The reason rule of POST /api/admin/reverse (contracts/admin.ts): trimmed, 3-500 characters. */
export function reasonError(reason: string): string | undefined {
  const checked = reasonSchema.safeParse(reason);
  return checked.success ? undefined : firstMessage(checked.error);
}

export interface ReverseTarget {
  streamId: string;
  /** What the admin sees, e.g. "TransferCompleted of ₹500.00 with Vikram Nair". */
  summary: string;
}

export function ReverseDialog({
  target,
  onClose,
  onReversed,
}: {
  target: ReverseTarget | null;
  onClose: () => void;
  onReversed?: (position: string | null) => void;
}): ReactElement {
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const reverse = useReverseTransaction();
  const notify = useToast();
  const error = touched ? reasonError(reason) : undefined;

  function close(): void {
    setReason('');
    setTouched(false);
    setRefusal(null);
    onClose();
  }

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    setTouched(true);
    if (!target || reasonError(reason)) return;
    setRefusal(null);
    try {
      const reply = await reverse.mutateAsync({ streamId: target.streamId, reason: reason.trim() });
      if (!reply.success) {
        setRefusal(reply.message || 'The reversal was refused');
        return;
      }
      // 202: filed for a second admin's approval, not done yet.
      notify({ tone: reply.status === 202 ? 'info' : 'success', message: reply.message || 'Transaction reversed' });
      onReversed?.(reply.data?.position ?? null);
      close();
    } catch (caught) {
      setRefusal(
        caught instanceof NetworkError
          ? 'Network error. Please check your connection and try again.'
          : 'The reversal failed',
      );
    }
  }

  return (
    <Modal
      open={target !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      title="Reverse transaction"
      description="A reversal is a new, linked event; the original stays in the ledger."
      busy={reverse.isPending}
      busyLabel="Reversing..."
    >
      <form onSubmit={(event) => void submit(event)} aria-label="Reverse transaction" noValidate>
        <p className="small">
          <span className="muted">Reversing:</span> {target?.summary} <span className="mono">({target?.streamId})</span>
        </p>
        <TextAreaField
          label="Reason"
          value={reason}
          maxLength={MAX_REASON_LENGTH}
          onValueChange={setReason}
          onBlur={() => setTouched(true)}
          error={error}
          required
        />
        {refusal ? (
          <Notice tone="danger" title="Reversal refused">
            {refusal}
          </Notice>
        ) : null}
        <div className="modal-actions">
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" disabled={reverse.isPending}>
            Reverse
          </Button>
        </div>
      </form>
    </Modal>
  );
}
