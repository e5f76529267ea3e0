/**
 * The pay steps shared by Transfer and Scan to pay (spec sections 4, 5, 8), in three
 * stages: details (amount and reference, checked with the shared transfer schema plus the
 * two rules that need client state: recipient verified, amount within balance), confirm
 * ("Pay ₹1,00,000.00 to Vikram Nair", Back / Confirm) and PIN. One Idempotency-Key per
 * submission; on success the ledger reads refresh with read-your-writes.
 */
import { useQueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { useState } from 'react';
import { transactionPin } from '../../../../../contracts/fields.ts';
import { transferSchema } from '../../../../../contracts/transactions.ts';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { NetworkError } from '../../../lib/api-client.ts';
import { validate, type FieldErrors } from '../../../lib/forms.ts';
import { useSubmissionKey } from '../../../lib/idempotency.ts';
import { pinRefusal } from '../../../lib/pin-refusal.ts';
import { balancePaise, rupeesFromPaise } from '../../../lib/money-input.ts';
import { refreshAfterCommand } from '../../../lib/query-client.ts';
import { successWords } from '../../../lib/server-words.ts';
import { useTransferFunds } from '../api/transfer-funds.ts';
import { useTransferToPayee } from '../api/transfer-to-payee.ts';

export interface PayValues {
  amount: string;
  reference: string;
  transactionPin: string;
}

export type PayStage = 'details' | 'confirm' | 'pin';

/** What the confirmation shows and the payment sends: checked once, at Continue. */
export interface ReviewedPayment {
  receiver: string;
  /** A mobile number or a handle (its key): sent for the server to resolve, instead of `receiver`. */
  payee?: string | undefined;
  amountPaise: bigint;
  reference: string;
}

export const EMPTY_PAY: PayValues = { amount: '', reference: '', transactionPin: '' };

const detailsSchema = transferSchema.omit({ transactionPin: true, sender: true });
/** A payee found by mobile number or handle has no account number in the browser: the server resolves it. */
const payeeDetailsSchema = detailsSchema.omit({ receiver: true });

export function checkDetails(
  input: { receiver: string; payee?: string | undefined; verified: boolean; balance: number } & Omit<
    PayValues,
    'transactionPin'
  >,
): { ok: true; payment: ReviewedPayment } | { ok: false; errors: FieldErrors } {
  const details = { amount: input.amount, reference: input.reference };
  const checked =
    input.payee === undefined
      ? validate(detailsSchema, { receiver: input.receiver, ...details })
      : validate(payeeDetailsSchema, details);
  const errors: FieldErrors = checked.ok ? {} : { ...checked.errors };
  if (!errors.receiver && !input.verified) errors.receiver = i18next.t('send.verifyFirst');
  if (checked.ok && checked.data.amount > balancePaise(input.balance)) errors.amount = i18next.t('send.insufficient');
  if (!checked.ok || Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    payment: {
      // The account number rule trims; the checked value is the trimmed text.
      receiver: input.payee === undefined ? input.receiver.trim() : '',
      payee: input.payee,
      amountPaise: checked.data.amount,
      reference: checked.data.reference,
    },
  };
}

/** What a payment's answer does in the dialog that sent it. */
interface PaymentOutcomes {
  paid: () => void;
  pinRefused: (reason: string) => void;
}

/**
 * The payment command: to an account number (the spec's transfer), or to a mobile number or
 * handle, with one Idempotency-Key per submission (kept after a network failure, so a retry
 * cannot pay twice), and its answer: paid (the message is the dialog's result, and takes the
 * focus), or why not, where it belongs.
 */
function usePaymentCommand(userId: string) {
  const transfer = useTransferFunds();
  const payeeTransfer = useTransferToPayee();
  const keys = useSubmissionKey();
  const notify = useToast();
  const client = useQueryClient();

  function send(payment: ReviewedPayment, transactionPin: string) {
    const amount = rupeesFromPaise(payment.amountPaise);
    if (payment.payee !== undefined) {
      const body = { payee: payment.payee, amount, reference: payment.reference, transactionPin };
      return payeeTransfer.mutateAsync({ body, idempotencyKey: keys.keyFor(body) });
    }
    const body = {
      receiver: payment.receiver,
      amount,
      reference: payment.reference,
      transactionPin,
      sender: userId,
      type: 'debit' as const,
      status: 'success' as const,
    };
    return transfer.mutateAsync({ body, idempotencyKey: keys.keyFor(body) });
  }

  async function submit(payment: ReviewedPayment, transactionPin: string, on: PaymentOutcomes): Promise<void> {
    try {
      const reply = await send(payment, transactionPin);
      keys.complete();
      const pinReason = pinRefusal(reply);
      if (reply.success) {
        notify({ tone: 'success', message: successWords(reply.message, i18next.t('send.success')), result: true });
        on.paid();
        await refreshAfterCommand(client);
      } else if (reply.code === 'PIN_NOT_SET') {
        notify({ tone: 'error', message: i18next.t('deposit.pinNotSet'), durationMs: 5000 });
      } else if (pinReason) {
        on.pinRefused(pinReason);
      } else {
        notify({ tone: 'error', message: reply.message || i18next.t('send.failed') });
      }
    } catch (error) {
      // The key is kept: retrying the same payment must not pay twice.
      const message = error instanceof NetworkError ? 'send.networkFailed' : 'send.failed';
      notify({ tone: 'error', message: i18next.t(message) });
    }
  }

  return { submit, answered: keys.complete, paying: transfer.isPending || payeeTransfer.isPending };
}

export function usePayment(options: { userId: string; balance: number; onPaid: () => void }) {
  const [values, setValues] = useState<PayValues>(EMPTY_PAY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [stage, setStage] = useState<PayStage>('details');
  const [reviewed, setReviewed] = useState<ReviewedPayment | null>(null);
  const command = usePaymentCommand(options.userId);

  function set(field: keyof PayValues, value: string): void {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: '' }));
  }

  function reset(): void {
    setValues(EMPTY_PAY);
    setErrors({});
    setStage('details');
    setReviewed(null);
    command.answered();
  }

  /** Details -> confirmation, when every rule but the PIN's passes. */
  function review(receiver: string, verified: boolean, payee?: string): boolean {
    const checked = checkDetails({ receiver, payee, verified, balance: options.balance, ...values });
    // The reasons are under their fields; a toast would only repeat them.
    setErrors(checked.ok ? {} : checked.errors);
    if (!checked.ok) return false;
    setReviewed(checked.payment);
    setStage('confirm');
    return true;
  }

  /** One step back: the PIN to the confirmation, the confirmation to the details. */
  function back(): void {
    setErrors((current) => ({ ...current, transactionPin: '' }));
    setStage((current) => (current === 'pin' ? 'confirm' : 'details'));
  }

  async function pay(): Promise<void> {
    if (!reviewed) return;
    const pin = transactionPin.safeParse(values.transactionPin);
    setErrors(pin.success ? {} : { transactionPin: pin.error.issues[0]?.message ?? i18next.t('send.pinRequired') });
    if (!pin.success) return;
    await command.submit(reviewed, values.transactionPin, {
      paid: () => {
        reset();
        options.onPaid();
      },
      // Under the PIN field, and the field empty for the next try.
      pinRefused: (reason) => {
        setValues((current) => ({ ...current, transactionPin: '' }));
        setErrors({ transactionPin: reason });
      },
    });
  }

  const confirm = () => setStage('pin');
  const paying = command.paying;
  return { values, errors, set, reset, review, confirm, back, pay, stage, reviewed, paying, setErrors };
}
