/**
 * Send Request (spec sections 2, 5, 8): account number with Verify (Verify, Verifying,
 * Verified; locked once verified), amount (grouped en-IN as typed, up to 10,00,000),
 * reference (counter n/500). Send is disabled until verified; Cancel or close resets
 * everything. The view; state and submission are useSendRequestForm.ts.
 */
import type { ReactElement } from 'react';
import { FORM_LIMITS } from '../../../../../contracts/transactions.ts';
import { AmountField } from '../../../components/ui/AmountField.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { TextAreaField, TextField } from '../../../components/ui/Field.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import { VerifiedPanel } from '../../../components/ui/VerifiedPanel.tsx';
import { formatRupees } from '../../../lib/format.ts';
import { useSendRequestForm } from './useSendRequestForm.ts';

export function SendRequestDialog({
  open,
  onOpenChange,
  userId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  userId: string;
}): ReactElement {
  const form = useSendRequestForm({ userId, onOpenChange });
  const { values, errors, set, verified } = form;
  const verifyLabel = form.verifying ? 'Verifying' : verified ? 'Verified' : 'Verify';
  return (
    <Modal
      open={open}
      onOpenChange={form.close}
      title="Send Request"
      description="Request funds from another account"
      busy={form.sending}
      busyLabel="Sending request..."
    >
      <form onSubmit={form.submit} noValidate className="form-stack" aria-label="Send request">
        <div className="verify-row">
          <TextField
            label="Account Number"
            placeholder="Enter account number to request from"
            value={values.receiver}
            readOnly={Boolean(verified)}
            onValueChange={set('receiver')}
            error={errors.receiver}
            autoComplete="off"
          />
          <Button
            variant={verified ? 'success' : 'secondary'}
            onClick={() => void form.verify()}
            disabled={!form.canVerify}
          >
            {verifyLabel}
          </Button>
        </div>
        {verified ? (
          <VerifiedPanel
            name={verified.name}
            accountNumber={verified.accountNumber}
            bankName={verified.bankName}
            action={
              <Button variant="link" onClick={form.changeAccount}>
                Change account
              </Button>
            }
          />
        ) : null}
        <AmountField
          label="Amount (₹)"
          hint={`Up to ${formatRupees(FORM_LIMITS.requestMaxRupees)}`}
          value={values.amount}
          onValueChange={set('amount')}
          error={errors.amount}
          placeholder="0.00"
        />
        <TextAreaField
          label="Reference"
          maxLength={FORM_LIMITS.requestReferenceMaxLength}
          value={values.reference}
          onValueChange={set('reference')}
          error={errors.reference}
          placeholder="What is this request for?"
        />
        <div className="modal-actions">
          <Button variant="secondary" onClick={() => form.close(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={!verified || form.verifying || form.sending}>
            Send Request
          </Button>
        </div>
      </form>
    </Modal>
  );
}
