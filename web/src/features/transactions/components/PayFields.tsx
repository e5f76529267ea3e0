/**
 * Amount (step 0.01, minimum 1), reference (200 characters with a counter) and the masked
 * transaction PIN with a show/hide toggle.
 */
import type { ReactElement } from 'react';
import { PasswordField, TextAreaField, TextField } from '../../../components/ui/Field.tsx';
import { FORM_LIMITS } from '../../../../../contracts/transactions.ts';
import { digitsOnly, type FieldErrors } from '../../../lib/forms.ts';
import type { PayValues } from './usePayment.ts';

/** The amount input's id, so a dialog can move focus to it once the recipient is verified. */
export const PAY_AMOUNT_ID = 'pay-amount';

export function focusPayAmount(): void {
  // After the Verify button is replaced, focus would fall back to the dialog; the next field is the amount.
  window.requestAnimationFrame(() => document.getElementById(PAY_AMOUNT_ID)?.focus());
}

export function PayFields({
  values,
  errors,
  onChange,
}: {
  values: PayValues;
  errors: FieldErrors;
  onChange: (field: keyof PayValues, value: string) => void;
}): ReactElement {
  return (
    <>
      <TextField
        id={PAY_AMOUNT_ID}
        label="Amount (₹)"
        type="number"
        inputMode="decimal"
        step="0.01"
        min={FORM_LIMITS.transferMinRupees}
        value={values.amount}
        onValueChange={(value) => onChange('amount', value)}
        error={errors.amount}
        placeholder="0.00"
      />
      <TextAreaField
        label="Reference"
        maxLength={FORM_LIMITS.paymentReferenceMaxLength}
        value={values.reference}
        onValueChange={(value) => onChange('reference', value)}
        error={errors.reference}
        placeholder="What is this payment for?"
      />
      <PasswordField
        label="Transaction PIN"
        inputMode="numeric"
        autoComplete="off"
        value={values.transactionPin}
        onValueChange={(value) => onChange('transactionPin', digitsOnly(value, 6))}
        error={errors.transactionPin}
        placeholder="4-6 digits"
      />
    </>
  );
}
