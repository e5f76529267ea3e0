/**
 * Send Request (spec sections 2, 5, 8): account number with Verify (Verify, Verifying,
 * Verified; locked once verified), amount (grouped en-IN as typed, up to 10,00,000),
 * reference (counter n/500). Send is disabled until verified; Cancel or close resets everything.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactElement } from 'react';
import { FORM_LIMITS, SELF_REQUEST_MESSAGE, sendRequestSchema } from '../../../../../contracts/transactions.ts';
import { AmountField } from '../../../components/ui/AmountField.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { TextAreaField, TextField } from '../../../components/ui/Field.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { VerifiedPanel } from '../../../components/ui/VerifiedPanel.tsx';
import { NetworkError } from '../../../lib/api-client.ts';
import { validate, type FieldErrors } from '../../../lib/forms.ts';
import { formatRupees } from '../../../lib/format.ts';
import { useSubmissionKey } from '../../../lib/idempotency.ts';
import { rupeesFromPaise } from '../../../lib/money-input.ts';
import { refreshAfterCommand } from '../../../lib/query-client.ts';
import { useRecipient } from '../../../lib/use-recipient.ts';
import { useSendRequest } from '../api/send-request.ts';

const EMPTY = { receiver: '', amount: '', reference: '' };

export function SendRequestDialog({
  open,
  onOpenChange,
  userId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  userId: string;
}): ReactElement {
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const recipient = useRecipient();
  const send = useSendRequest();
  const keys = useSubmissionKey();
  const notify = useToast();
  const client = useQueryClient();

  function close(next: boolean): void {
    if (!next) {
      setValues(EMPTY);
      setErrors({});
      recipient.clear();
      keys.complete();
    }
    onOpenChange(next);
  }
  const set = (field: keyof typeof EMPTY) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (field === 'receiver') recipient.clear();
    if (errors[field]) setErrors((current) => ({ ...current, [field]: '' }));
  };

  async function verify(): Promise<void> {
    const receiver = values.receiver.trim();
    const problem = !receiver ? 'Account number is required' : receiver === userId ? SELF_REQUEST_MESSAGE : null;
    if (problem) {
      setErrors((current) => ({ ...current, receiver: problem }));
      notify({ tone: 'warning', message: `Please fix the error: ${problem}` });
      return;
    }
    const outcome = await recipient.verify(receiver);
    if (outcome.ok) {
      notify({ tone: 'success', message: 'Account verified successfully', durationMs: 3000 });
      setErrors((current) => ({ ...current, receiver: '' }));
    } else {
      const message = outcome.network ? 'Verification error occurred' : outcome.message;
      setErrors((current) => ({ ...current, receiver: message }));
      notify({ tone: 'error', message, durationMs: 4000 });
    }
  }

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    const checked = validate(sendRequestSchema, values);
    const found: FieldErrors = checked.ok ? {} : { ...checked.errors };
    if (!found.receiver && values.receiver.trim() === userId) found.receiver = SELF_REQUEST_MESSAGE;
    if (!found.receiver && recipient.status !== 'verified') found.receiver = 'Please verify the account first';
    const first = Object.values(found).find(Boolean);
    if (!checked.ok || first) {
      setErrors(found);
      notify({ tone: 'warning', message: `Please fix the error: ${first ?? 'Invalid input'}`, durationMs: 4000 });
      return;
    }
    setErrors({});
    const body = {
      receiver: checked.data.receiver,
      amount: rupeesFromPaise(checked.data.amount),
      reference: checked.data.reference,
    };
    try {
      const reply = await send.mutateAsync({ body, idempotencyKey: keys.keyFor(body) });
      keys.complete();
      if (reply.success) {
        notify({ tone: 'success', message: reply.message || 'Request sent successfully!', durationMs: 3000 });
        close(false);
        await refreshAfterCommand(client);
      } else {
        notify({
          tone: 'error',
          message: reply.message || 'Failed to send request. Please try again.',
          durationMs: 5000,
        });
      }
    } catch (error) {
      notify({
        tone: 'error',
        message:
          error instanceof NetworkError
            ? 'Failed to send request. Please check your connection and try again.'
            : 'Failed to send request. Please try again.',
        durationMs: 5000,
      });
    }
  }

  const verified = recipient.status === 'verified' && recipient.account ? recipient.account : null;
  const verifyLabel = recipient.status === 'verifying' ? 'Verifying' : verified ? 'Verified' : 'Verify';
  return (
    <Modal
      open={open}
      onOpenChange={close}
      title="Send Request"
      description="Request funds from another account"
      busy={send.isPending}
      busyLabel="Sending request..."
    >
      <form onSubmit={submit} noValidate className="form-stack" aria-label="Send request">
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
            onClick={() => void verify()}
            disabled={recipient.status !== 'unverified'}
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
              <Button
                variant="link"
                onClick={() => {
                  recipient.clear();
                  setValues((current) => ({ ...current, receiver: '' }));
                }}
              >
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
          <Button variant="secondary" onClick={() => close(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={!verified || recipient.status === 'verifying' || send.isPending}>
            Send Request
          </Button>
        </div>
      </form>
    </Modal>
  );
}
