/**
 * The details of a payment: amount (grouped en-IN as typed, minimum 1) and reference (200
 * characters with a counter). The transaction PIN is asked later, after the confirmation
 * (ConfirmPayment), and the pay step that follows it.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { AmountField } from '../../../components/ui/AmountField.tsx';
import { ConfirmPayment } from '../../../components/ui/ConfirmPayment.tsx';
import { TextAreaField } from '../../../components/ui/Field.tsx';
import { FORM_LIMITS } from '../../../../../contracts/transactions.ts';
import type { FieldErrors } from '../../../lib/forms.ts';
import { formatRupees } from '../../../lib/format.ts';
import type { PayValues, usePayment } from './usePayment.ts';

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
  const { t } = useTranslation();
  return (
    <>
      <AmountField
        id={PAY_AMOUNT_ID}
        label={t('deposit.amount')}
        hint={t('send.minimum', { amount: formatRupees(FORM_LIMITS.transferMinRupees, { whole: true }) })}
        value={values.amount}
        onValueChange={(value) => onChange('amount', value)}
        error={errors.amount}
        placeholder="0.00"
      />
      <TextAreaField
        label={t('payment.reference')}
        maxLength={FORM_LIMITS.paymentReferenceMaxLength}
        value={values.reference}
        onValueChange={(value) => onChange('reference', value)}
        error={errors.reference}
        placeholder={t('send.referencePlaceholder')}
      />
    </>
  );
}

/** The confirmation and PIN stages of a payment, for the verified payee. */
export function PayConfirmation({
  payment,
  payee,
  payLabel,
}: {
  payment: ReturnType<typeof usePayment>;
  payee: { name: string; accountNumber: string; bankName?: string | undefined };
  payLabel?: string;
}): ReactElement | null {
  if (payment.stage === 'details' || !payment.reviewed) return null;
  return (
    <ConfirmPayment
      stage={payment.stage}
      amountPaise={payment.reviewed.amountPaise}
      payee={payee}
      reference={payment.reviewed.reference}
      pin={payment.values.transactionPin}
      pinError={payment.errors.transactionPin}
      busy={payment.paying}
      {...(payLabel ? { payLabel } : {})}
      onPinChange={(pin) => payment.set('transactionPin', pin)}
      onBack={() => {
        // Back from the confirmation re-opens the details: continue where the amount is.
        if (payment.stage === 'confirm') focusPayAmount();
        payment.back();
      }}
      onConfirm={payment.confirm}
      onPay={() => void payment.pay()}
    />
  );
}
