/**
 * Approving a request pays the requester, so it asks for the transaction PIN first.
 */
import { useState, type FormEvent, type ReactElement } from 'react';
import { transactionPin } from '../../../../../contracts/fields.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { PasswordField } from '../../../components/ui/Field.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import { digitsOnly } from '../../../lib/forms.ts';
import { formatRupees } from '../../../lib/format.ts';
import type { MoneyRequestRecord } from '../api/get-requests.ts';

export function ApproveDialog({
  request,
  busy,
  onCancel,
  onApprove,
}: {
  request: MoneyRequestRecord | null;
  busy: boolean;
  onCancel: () => void;
  onApprove: (pin: string) => Promise<boolean>;
}): ReactElement {
  const [pin, setPin] = useState('');
  const [error, setError] = useState('');
  function close(): void {
    setPin('');
    setError('');
    onCancel();
  }
  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    const checked = transactionPin.safeParse(pin);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? 'Transaction PIN is required');
      return;
    }
    if (await onApprove(pin)) close();
  }
  return (
    <Modal
      open={request !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      title="Approve request"
      description={
        request ? `Pay ${formatRupees(request.amount)} to ${request.sender.firstName} ${request.sender.lastName}` : ''
      }
      busy={busy}
    >
      <form onSubmit={submit} noValidate className="form-stack" aria-label="Approve request">
        {request ? <p className="muted">Reference: {request.reference}</p> : null}
        <PasswordField
          label="Transaction PIN"
          inputMode="numeric"
          autoComplete="off"
          value={pin}
          onValueChange={(value) => {
            setPin(digitsOnly(value, 6));
            setError('');
          }}
          error={error}
          autoFocus
        />
        <div className="modal-actions">
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" variant="success" disabled={busy}>
            Approve and pay
          </Button>
        </div>
      </form>
    </Modal>
  );
}
