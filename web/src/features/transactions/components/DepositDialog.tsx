/**
 * Deposit Funds (spec sections 2, 4, 5, 8): amount, reference, PIN and a method - bank
 * transfer (account, IFSC, bank), UPI (id) or card ('Pay ₹{amount}' through the configured
 * provider). Bank transfer and UPI are submitted as pending and processed in 1-2 business
 * days. The view; state and submission are useDepositForm.ts.
 */
import type { ReactElement } from 'react';
import { FORM_LIMITS } from '../../../../../contracts/transactions.ts';
import { AmountField } from '../../../components/ui/AmountField.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { PasswordField, TextAreaField } from '../../../components/ui/Field.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import { digitsOnly } from '../../../lib/forms.ts';
import { formatRupees } from '../../../lib/format.ts';
import { MethodChoice, MethodFields } from './DepositMethodFields.tsx';
import { useDepositForm, type DepositUser } from './useDepositForm.ts';

export interface DepositDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  user: DepositUser;
}

export function DepositDialog({ open, onOpenChange, user }: DepositDialogProps): ReactElement {
  const form = useDepositForm({ user, onOpenChange });
  const { values, errors, set } = form;
  return (
    <Modal
      open={open}
      onOpenChange={form.close}
      title="Deposit Funds"
      description="Add money to your wallet."
      busy={form.pending}
      size="lg"
    >
      <form onSubmit={form.submit} noValidate className="form-stack" aria-label="Deposit funds">
        <AmountField
          label="Amount (₹)"
          value={values.amount}
          onValueChange={set('amount')}
          error={errors.amount || form.liveAmountError}
          placeholder={`Between ${formatRupees(FORM_LIMITS.depositMinRupees)} and ${formatRupees(FORM_LIMITS.depositMaxRupees)}`}
        />
        <TextAreaField
          label="Reference"
          maxLength={FORM_LIMITS.paymentReferenceMaxLength}
          value={values.reference}
          onValueChange={set('reference')}
          error={errors.reference}
        />
        <PasswordField
          label="Transaction PIN"
          inputMode="numeric"
          autoComplete="off"
          value={values.transactionPin}
          onValueChange={set('transactionPin', (value) => digitsOnly(value, 6))}
          error={errors.transactionPin}
        />
        <MethodChoice form={form} />
        <MethodFields form={form} />
        {form.method !== 'card' ? (
          <div className="modal-actions">
            <Button variant="secondary" onClick={() => form.close(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={form.pending}>
              {form.pending ? 'Submitting...' : 'Submit deposit'}
            </Button>
          </div>
        ) : null}
      </form>
    </Modal>
  );
}
