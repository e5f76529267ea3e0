/**
 * Deposit Funds (spec sections 2, 4, 5, 8): amount, reference, PIN and a method - bank
 * transfer (account, IFSC, bank), UPI (id) or card ('Pay ₹{amount}' through the configured
 * provider: Stripe Elements with a publishable key, otherwise the sandbox form). Bank
 * transfer and UPI are submitted as pending and processed in 1-2 business days.
 */
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState, type FormEvent, type ReactElement } from 'react';
import { depositSchema, FORM_LIMITS } from '../../../../../contracts/transactions.ts';
import { AmountField } from '../../../components/ui/AmountField.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { PasswordField, TextAreaField, TextField } from '../../../components/ui/Field.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { Notice } from '../../../components/ui/misc.tsx';
import { NetworkError } from '../../../lib/api-client.ts';
import { useAppConfig } from '../../../lib/api/app-config.ts';
import { digitsOnly, validate, type FieldErrors } from '../../../lib/forms.ts';
import { formatRupees } from '../../../lib/format.ts';
import { useSubmissionKey } from '../../../lib/idempotency.ts';
import { rupeesFromPaise } from '../../../lib/money-input.ts';
import { refreshAfterCommand } from '../../../lib/query-client.ts';
import { useDepositFunds, type DepositBody } from '../api/deposit-funds.ts';
import type { CardOutcome } from './card-form.ts';
import { SandboxCardForm } from './SandboxCardForm.tsx';

const StripeCardForm = lazy(() => import('./StripeCardForm.tsx'));

type Method = 'bank_transfer' | 'upi' | 'card';

const METHODS: { value: Method; label: string; text: string }[] = [
  { value: 'bank_transfer', label: 'Bank transfer', text: 'NEFT / IMPS from your bank' },
  { value: 'upi', label: 'UPI', text: 'Any UPI app' },
  { value: 'card', label: 'Card', text: 'Debit or credit card, instant' },
];

const EMPTY = {
  amount: '',
  reference: '',
  transactionPin: '',
  accountNumber: '',
  ifscCode: '',
  bankName: '',
  upiId: '',
};
type Values = typeof EMPTY;

export interface DepositDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  user: { _id: string; firstName: string; lastName: string; email: string };
}

export function payloadFor(method: Method, values: Values, paymentMethodId = 'pm_placeholder') {
  const base = {
    amount: values.amount,
    reference: values.reference,
    transactionPin: values.transactionPin,
    paymentMethod: method,
  };
  if (method === 'bank_transfer')
    return {
      ...base,
      bankDetails: { accountNumber: values.accountNumber, ifscCode: values.ifscCode, bankName: values.bankName },
    };
  if (method === 'upi') return { ...base, upiDetails: { upiId: values.upiId } };
  return { ...base, paymentMethodId };
}

/** Field names of the form for the schema's paths (bankDetails.ifscCode -> ifscCode). */
function flatten(errors: FieldErrors): FieldErrors {
  const flat: FieldErrors = {};
  for (const [path, message] of Object.entries(errors)) flat[path.split('.').pop() ?? path] ??= message;
  return flat;
}

export function DepositDialog({ open, onOpenChange, user }: DepositDialogProps): ReactElement {
  const [method, setMethod] = useState<Method>('bank_transfer');
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const config = useAppConfig();
  const deposit = useDepositFunds();
  const keys = useSubmissionKey();
  const notify = useToast();
  const client = useQueryClient();

  function close(next: boolean): void {
    if (!next) {
      setValues(EMPTY);
      setErrors({});
      setMethod('bank_transfer');
      keys.complete();
    }
    onOpenChange(next);
  }
  const set =
    (field: keyof Values, transform: (value: string) => string = (value) => value) =>
    (value: string) => {
      setValues((current) => ({ ...current, [field]: transform(value) }));
      if (errors[field]) setErrors((current) => ({ ...current, [field]: '' }));
    };

  const cardCheck = validate(depositSchema, payloadFor('card', values));
  const amountLabel = cardCheck.ok ? formatRupees(rupeesFromPaise(cardCheck.data.amount)) : '₹0';

  async function send(paymentMethodId?: string): Promise<CardOutcome> {
    const checked = validate(depositSchema, payloadFor(method, values, paymentMethodId));
    if (!checked.ok) {
      setErrors(flatten(checked.errors));
      notify({ tone: 'warning', message: 'Please fix the errors before proceeding' });
      return { status: 'done' };
    }
    setErrors({});
    const data = checked.data;
    const body: DepositBody = {
      userId: user._id,
      amount: rupeesFromPaise(data.amount),
      reference: data.reference,
      transactionPin: data.transactionPin,
      paymentMethod: data.paymentMethod,
      status: data.paymentMethod === 'card' ? 'success' : 'pending',
      type: 'deposit',
      timestamp: new Date().toISOString(),
      ...(data.paymentMethod === 'bank_transfer' ? { bankDetails: data.bankDetails } : {}),
      ...(data.paymentMethod === 'upi' ? { upiDetails: data.upiDetails } : {}),
      ...(data.paymentMethod === 'card' ? { paymentMethodId: data.paymentMethodId } : {}),
    };
    const { timestamp: _timestamp, ...stable } = body;
    try {
      const reply = await deposit.mutateAsync({ body, idempotencyKey: keys.keyFor(stable) });
      keys.complete();
      const action = reply.data as { status?: string; clientSecret?: string } | undefined;
      if (reply.success && action?.status === 'requires_action' && action.clientSecret) {
        notify({
          tone: 'info',
          message: reply.message || 'Please complete the card verification to finish your deposit.',
        });
        return { status: 'requires_action', clientSecret: action.clientSecret };
      }
      if (reply.success) {
        notify({
          tone: 'success',
          message:
            data.paymentMethod === 'card'
              ? 'Card deposit successful! Your account has been credited.'
              : 'Deposit request submitted successfully!',
          durationMs: 5000,
        });
        close(false);
        await refreshAfterCommand(client);
      } else if (reply.code === 'PIN_NOT_SET') {
        notify({ tone: 'error', message: 'Please set your transaction PIN first in settings.', durationMs: 5000 });
      } else {
        notify({
          tone: 'error',
          message:
            reply.message ||
            (data.paymentMethod === 'card'
              ? 'Card payment failed. Please try again.'
              : 'Deposit request failed. Please try again.'),
          durationMs: 5000,
        });
      }
    } catch (error) {
      notify({
        tone: 'error',
        message:
          error instanceof NetworkError
            ? 'Network error. Please check your connection and try again.'
            : 'Deposit request failed. Please try again.',
      });
    }
    return { status: 'done' };
  }

  function submit(event: FormEvent): void {
    event.preventDefault();
    if (method !== 'card') void send();
  }

  const cardProps = {
    payLabel: `Pay ${amountLabel}`,
    depositValid: cardCheck.ok,
    busy: deposit.isPending,
    billing: { name: `${user.firstName} ${user.lastName}`.trim(), email: user.email },
    onPaymentMethod: (paymentMethodId: string) => send(paymentMethodId),
    onVerified: () => {
      notify({
        tone: 'success',
        message: 'Card verified. Your wallet will be credited as soon as the bank confirms.',
        durationMs: 5000,
      });
      close(false);
      void refreshAfterCommand(client);
    },
    onError: (message: string) => notify({ tone: 'error', message, durationMs: 5000 }),
  };
  const stripeKey = config.data?.cardProvider === 'stripe' ? config.data.stripePublishableKey : undefined;
  return (
    <Modal
      open={open}
      onOpenChange={close}
      title="Deposit Funds"
      description="Add money to your wallet."
      busy={deposit.isPending}
      size="lg"
    >
      <form onSubmit={submit} noValidate className="form-stack" aria-label="Deposit funds">
        <AmountField
          label="Amount (₹)"
          value={values.amount}
          onValueChange={set('amount')}
          error={errors.amount}
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
        <fieldset className="method-group">
          <legend className="field-label">Payment method</legend>
          <div className="method-options">
            {METHODS.map((option) => (
              <label key={option.value} className={`method-option${method === option.value ? ' selected' : ''}`}>
                <input
                  type="radio"
                  name="paymentMethod"
                  value={option.value}
                  checked={method === option.value}
                  onChange={() => {
                    setMethod(option.value);
                    setErrors({});
                  }}
                />
                <span className="method-label">{option.label}</span>
                <span className="method-text">{option.text}</span>
              </label>
            ))}
          </div>
        </fieldset>
        {method === 'bank_transfer' ? (
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
              <TextField
                label="Bank name"
                value={values.bankName}
                onValueChange={set('bankName')}
                error={errors.bankName}
              />
            </div>
          </>
        ) : null}
        {method === 'upi' ? (
          <TextField
            label="UPI ID"
            value={values.upiId}
            onValueChange={set('upiId', (value) => value.toLowerCase())}
            error={errors.upiId}
            placeholder="name@bank"
          />
        ) : null}
        {method === 'card' ? (
          stripeKey ? (
            <Suspense fallback={<p className="muted">Loading secure card form...</p>}>
              <StripeCardForm {...cardProps} publishableKey={stripeKey} />
            </Suspense>
          ) : (
            <SandboxCardForm {...cardProps} />
          )
        ) : (
          <Notice tone="info">Bank transfer and UPI requests are processed in 1-2 business days.</Notice>
        )}
        {method !== 'card' ? (
          <div className="modal-actions">
            <Button variant="secondary" onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={deposit.isPending}>
              {deposit.isPending ? 'Submitting...' : 'Submit deposit'}
            </Button>
          </div>
        ) : null}
      </form>
    </Modal>
  );
}
