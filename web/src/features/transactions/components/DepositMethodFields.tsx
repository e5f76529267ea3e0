/**
 * The deposit form's method part: the method choice, then the chosen method's fields -
 * bank transfer (account, IFSC, bank), UPI (id) or card (Stripe Elements with a publishable
 * key, otherwise the sandbox form).
 */
import { lazy, Suspense, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/ui/Field.tsx';
import { Notice } from '../../../components/ui/misc.tsx';
import styles from './DepositMethodFields.module.css';
import { SandboxCardForm } from './SandboxCardForm.tsx';
import type { DepositForm, DepositMethod } from './useDepositForm.ts';

const StripeCardForm = lazy(() => import('./StripeCardForm.tsx'));

const METHODS = [
  { value: 'bank_transfer', label: 'deposit.bankTransfer', text: 'deposit.bankTransferText' },
  { value: 'upi', label: 'deposit.upi', text: 'deposit.upiText' },
  { value: 'card', label: 'deposit.card', text: 'deposit.cardText' },
] as const satisfies readonly { value: DepositMethod; label: string; text: string }[];

export function MethodChoice({ form }: { form: DepositForm }): ReactElement {
  const { t } = useTranslation();
  return (
    <fieldset className={styles.group}>
      <legend className="field-label">{t('deposit.method')}</legend>
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
            <span className={styles.label}>{t(option.label)}</span>
            <span className={styles.text}>{t(option.text)}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function BankTransferFields({ form }: { form: DepositForm }): ReactElement {
  const { t } = useTranslation();
  const { values, errors, set } = form;
  return (
    <>
      <TextField
        label={t('deposit.accountNumber')}
        inputMode="numeric"
        value={values.accountNumber}
        onValueChange={set('accountNumber', (value) => value.replace(/\D/g, '').slice(0, 20))}
        error={errors.accountNumber}
      />
      <div className="form-row">
        <TextField
          label={t('deposit.ifsc')}
          value={values.ifscCode}
          onValueChange={set('ifscCode', (value) => value.toUpperCase().slice(0, 11))}
          error={errors.ifscCode}
          placeholder="SBIN0001234"
          maxLength={11}
        />
        <TextField
          label={t('deposit.bankName')}
          value={values.bankName}
          onValueChange={set('bankName')}
          error={errors.bankName}
        />
      </div>
    </>
  );
}

export function MethodFields({ form }: { form: DepositForm }): ReactElement {
  const { t } = useTranslation();
  return (
    <>
      {form.method === 'bank_transfer' ? <BankTransferFields form={form} /> : null}
      {form.method === 'upi' ? (
        <TextField
          label={t('deposit.upiId')}
          value={form.values.upiId}
          onValueChange={form.set('upiId', (value) => value.toLowerCase())}
          error={form.errors.upiId}
          placeholder="name@bank"
        />
      ) : null}
      {form.method === 'card' ? (
        form.stripeKey ? (
          <Suspense fallback={<p className="muted">{t('deposit.loadingCardForm')}</p>}>
            <StripeCardForm {...form.cardProps} publishableKey={form.stripeKey} />
          </Suspense>
        ) : (
          <SandboxCardForm {...form.cardProps} />
        )
      ) : (
        <Notice tone="info">{t('deposit.processingTime')}</Notice>
      )}
    </>
  );
}
