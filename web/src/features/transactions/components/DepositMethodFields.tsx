/**
 * The deposit form's method part: the method choice, then the chosen method's fields -
 * bank transfer (account, IFSC, bank), UPI (id) or card (Stripe Elements with a publishable
 * key, otherwise the sandbox form).
 */
import { lazy, Suspense, type ReactElement } from 'react';
import { TextField } from '../../../components/ui/Field.tsx';
import { Notice } from '../../../components/ui/misc.tsx';
import styles from './DepositMethodFields.module.css';
import { SandboxCardForm } from './SandboxCardForm.tsx';
import type { DepositForm, DepositMethod } from './useDepositForm.ts';

const StripeCardForm = lazy(() => import('./StripeCardForm.tsx'));

const METHODS: { value: DepositMethod; label: string; text: string }[] = [
  { value: 'bank_transfer', label: 'Bank transfer', text: 'NEFT / IMPS from your bank' },
  { value: 'upi', label: 'UPI', text: 'Any UPI app' },
  { value: 'card', label: 'Card', text: 'Debit or credit card, instant' },
];

export function MethodChoice({ form }: { form: DepositForm }): ReactElement {
  return (
    <fieldset className={styles.group}>
      <legend className="field-label">Payment method</legend>
      <div className={styles.options}>
        {METHODS.map((option) => (
          <label
            key={option.value}
            className={form.method === option.value ? `${styles.option} ${styles.selected}` : styles.option}
          >
            <input
              type="radio"
              name="paymentMethod"
              value={option.value}
              checked={form.method === option.value}
              onChange={() => form.chooseMethod(option.value)}
            />
            <span className={styles.label}>{option.label}</span>
            <span className={styles.text}>{option.text}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function BankTransferFields({ form }: { form: DepositForm }): ReactElement {
  const { values, errors, set } = form;
  return (
    <>
      <TextField
        label="Account number"
        inputMode="numeric"
        value={values.accountNumber}
        onValueChange={set('accountNumber', (value) => value.replace(/\D/g, '').slice(0, 20))}
        error={errors.accountNumber}
      />
      <div className="form-row">
        <TextField
          label="IFSC code"
          value={values.ifscCode}
          onValueChange={set('ifscCode', (value) => value.toUpperCase().slice(0, 11))}
          error={errors.ifscCode}
          placeholder="SBIN0001234"
          maxLength={11}
        />
        <TextField label="Bank name" value={values.bankName} onValueChange={set('bankName')} error={errors.bankName} />
      </div>
    </>
  );
}

export function MethodFields({ form }: { form: DepositForm }): ReactElement {
  return (
    <>
      {form.method === 'bank_transfer' ? <BankTransferFields form={form} /> : null}
      {form.method === 'upi' ? (
        <TextField
          label="UPI ID"
          value={form.values.upiId}
          onValueChange={form.set('upiId', (value) => value.toLowerCase())}
          error={form.errors.upiId}
          placeholder="name@bank"
        />
      ) : null}
      {form.method === 'card' ? (
        form.stripeKey ? (
          <Suspense fallback={<p className="muted">Loading secure card form...</p>}>
            <StripeCardForm {...form.cardProps} publishableKey={form.stripeKey} />
          </Suspense>
        ) : (
          <SandboxCardForm {...form.cardProps} />
        )
      ) : (
        <Notice tone="info">Bank transfer and UPI requests are processed in 1-2 business days.</Notice>
      )}
    </>
  );
}
