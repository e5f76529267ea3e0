/**
 * The deposit form's state and submission (spec sections 2, 4, 5, 8): the values and the
 * chosen method, validation with the shared deposit schema, the payload the server reads,
 * the mutation with one Idempotency-Key per submission, the toasts, and the ledger reads
 * refreshed with read-your-writes after a deposit. The view is DepositDialog.tsx.
 */
import { useQueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { useState, type Dispatch, type FormEvent, type SetStateAction } from 'react';
import type { z } from 'zod';
import { DEPOSIT_METHODS, depositSchema } from '../../../../../contracts/transactions.ts';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { NetworkError } from '../../../lib/api-client.ts';
import { useAppConfig } from '../../../lib/api/app-config.ts';
import { validate, type FieldErrors, type Validation } from '../../../lib/forms.ts';
import { formatRupees } from '../../../lib/format.ts';
import { useSubmissionKey } from '../../../lib/idempotency.ts';
import { pinRefusal } from '../../../lib/pin-refusal.ts';
import { rupeesFromPaise } from '../../../lib/money-input.ts';
import { refreshAfterCommand } from '../../../lib/query-client.ts';
import { useDepositFunds, type DepositBody } from '../api/deposit-funds.ts';
import type { CardFormProps, CardOutcome } from './card-form.ts';
import type { DepositInstructions } from '../../../../../contracts/deposit-instructions.ts';

export type DepositMethod = (typeof DEPOSIT_METHODS)[number];

export const EMPTY_DEPOSIT = {
  amount: '',
  reference: '',
  transactionPin: '',
  accountNumber: '',
  ifscCode: '',
  bankName: '',
  upiId: '',
};
export type DepositValues = typeof EMPTY_DEPOSIT;

export interface DepositUser {
  _id: string;
  firstName: string;
  lastName: string;
  email: string;
}

export function payloadFor(method: DepositMethod, values: DepositValues, paymentMethodId = 'pm_placeholder') {
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

/** The first reason, in the form's order, that the deposit's own fields cannot be paid. */
function cardBlockedReason(errors: FieldErrors): string | undefined {
  return errors.amount || errors.reference || errors.transactionPin || Object.values(errors)[0];
}

/** Field names of the form for the schema's paths (bankDetails.ifscCode -> ifscCode). */
function flatten(errors: FieldErrors): FieldErrors {
  const flat: FieldErrors = {};
  for (const [path, message] of Object.entries(errors)) flat[path.split('.').pop() ?? path] ??= message;
  return flat;
}

/** The wire body of a checked deposit: rupees again, and the spec's client's fields. */
function bodyFor(userId: string, data: z.output<typeof depositSchema>): DepositBody {
  const base = {
    userId,
    amount: rupeesFromPaise(data.amount),
    reference: data.reference,
    transactionPin: data.transactionPin,
  };
  const timestamp = new Date().toISOString();
  switch (data.paymentMethod) {
    case 'bank_transfer':
      return {
        ...base,
        paymentMethod: 'bank_transfer',
        status: 'pending',
        type: 'deposit',
        timestamp,
        bankDetails: data.bankDetails,
      };
    case 'upi':
      return {
        ...base,
        paymentMethod: 'upi',
        status: 'pending',
        type: 'deposit',
        timestamp,
        upiDetails: data.upiDetails,
      };
    case 'card':
      return {
        ...base,
        paymentMethod: 'card',
        status: 'success',
        type: 'deposit',
        timestamp,
        paymentMethodId: data.paymentMethodId,
      };
  }
}

/** What the deposit's answer changes in the form it came from. */
interface DepositFormHandles {
  user: DepositUser;
  method: DepositMethod;
  values: DepositValues;
  setValues: Dispatch<SetStateAction<DepositValues>>;
  setErrors: Dispatch<SetStateAction<FieldErrors>>;
  setInstructions: (instructions: DepositInstructions) => void;
  close: (open: boolean) => void;
  keys: ReturnType<typeof useSubmissionKey>;
}

type DepositReply = Awaited<ReturnType<ReturnType<typeof useDepositFunds>['mutateAsync']>>;

/**
 * The deposit command: the checked payload sent once per Idempotency-Key, and its answer -
 * a card's verification step, where to pay (bank transfer, UPI), a closed dialog, or the
 * reason where it belongs (a refused PIN under its field).
 */
function useDepositCommand(form: DepositFormHandles) {
  const deposit = useDepositFunds();
  const notify = useToast();
  const client = useQueryClient();

  async function answer(reply: DepositReply, card: boolean): Promise<CardOutcome> {
    const action = reply.data as
      { status?: string; clientSecret?: string; instructions?: DepositInstructions } | undefined;
    const pinReason = pinRefusal(reply);
    if (reply.success && action?.status === 'requires_action' && action.clientSecret) {
      notify({ tone: 'info', message: reply.message || i18next.t('deposit.completeVerification') });
      return { status: 'requires_action', clientSecret: action.clientSecret };
    }
    if (reply.success) {
      notify({
        tone: 'success',
        message: card ? i18next.t('deposit.cardSuccess') : i18next.t('deposit.requestSubmitted'),
        durationMs: 5000,
        // Bank transfer and UPI stay open on where to pay, which is their result.
        result: !action?.instructions,
      });
      // Bank transfer and UPI: the money is still to be sent, so say where before closing.
      if (action?.instructions) form.setInstructions(action.instructions);
      else form.close(false);
      await refreshAfterCommand(client);
    } else if (reply.code === 'PIN_NOT_SET') {
      notify({ tone: 'error', message: i18next.t('deposit.pinNotSet'), durationMs: 5000 });
    } else if (pinReason) {
      // The reason under the PIN field, and the field empty for the next try.
      form.setValues((current) => ({ ...current, transactionPin: '' }));
      form.setErrors({ transactionPin: pinReason });
    } else {
      const fallback = card ? 'deposit.cardFailed' : 'deposit.requestFailed';
      notify({ tone: 'error', message: reply.message || i18next.t(fallback), durationMs: 5000 });
    }
    return { status: 'done' };
  }

  async function send(paymentMethodId?: string): Promise<CardOutcome> {
    const checked = validate(depositSchema, payloadFor(form.method, form.values, paymentMethodId));
    // The reasons are under their fields; a toast would only repeat them.
    form.setErrors(checked.ok ? {} : flatten(checked.errors));
    if (!checked.ok) return { status: 'done' };
    const body = bodyFor(form.user._id, checked.data);
    const { timestamp: _timestamp, ...stable } = body;
    try {
      const reply = await deposit.mutateAsync({ body, idempotencyKey: form.keys.keyFor(stable) });
      form.keys.complete();
      return await answer(reply, checked.data.paymentMethod === 'card');
    } catch (error) {
      const message = error instanceof NetworkError ? 'deposit.networkError' : 'deposit.requestFailed';
      notify({ tone: 'error', message: i18next.t(message) });
      return { status: 'done' };
    }
  }

  return { send, pending: deposit.isPending, notify, client };
}

export function useDepositForm(options: { user: DepositUser; onOpenChange: (open: boolean) => void }) {
  const { user, onOpenChange } = options;
  const [method, setMethod] = useState<DepositMethod>('bank_transfer');
  const [values, setValues] = useState<DepositValues>(EMPTY_DEPOSIT);
  const [errors, setErrors] = useState<FieldErrors>({});
  // Set once a bank-transfer or UPI deposit is recorded: the dialog then shows where to pay.
  const [instructions, setInstructions] = useState<DepositInstructions | null>(null);
  const config = useAppConfig();
  const keys = useSubmissionKey();
  const command = useDepositCommand({ user, method, values, setValues, setErrors, setInstructions, close, keys });

  function close(next: boolean): void {
    if (!next) {
      setValues(EMPTY_DEPOSIT);
      setErrors({});
      setMethod('bank_transfer');
      setInstructions(null);
      keys.complete();
    }
    onOpenChange(next);
  }
  const set =
    (field: keyof DepositValues, transform: (value: string) => string = (value) => value) =>
    (value: string) => {
      setValues((current) => ({ ...current, [field]: transform(value) }));
      if (errors[field]) setErrors((current) => ({ ...current, [field]: '' }));
    };
  function chooseMethod(next: DepositMethod): void {
    setMethod(next);
    setErrors({});
  }

  const cardCheck = validate(depositSchema, payloadFor('card', values));

  /** Resolves once the deposit is answered, for the view to focus a field it refused. */
  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (method !== 'card') await command.send();
  }

  const stripeKey = config.data?.cardProvider === 'stripe' ? config.data.stripePublishableKey : undefined;

  return {
    instructions,
    method,
    chooseMethod,
    values,
    errors,
    set,
    close,
    submit,
    pending: command.pending,
    // A card deposit has no submit step to show the amount's reason at: say it as it is typed.
    liveAmountError:
      method === 'card' && values.amount.trim() !== '' && !cardCheck.ok ? cardCheck.errors.amount : undefined,
    cardProps: cardFormProps({ user, cardCheck, command, close }),
    stripeKey,
  };
}

/** What the card form needs: the Pay label and why it is disabled, the billing details, and the deposit to send. */
function cardFormProps(input: {
  user: DepositUser;
  cardCheck: Validation<z.output<typeof depositSchema>>;
  command: ReturnType<typeof useDepositCommand>;
  close: (open: boolean) => void;
}): CardFormProps {
  const { user, cardCheck, command, close } = input;
  return {
    // No amount on the button until there is a payable one ("Pay ₹0" explained nothing).
    payLabel: cardCheck.ok
      ? i18next.t('deposit.payAmount', { amount: formatRupees(rupeesFromPaise(cardCheck.data.amount)) })
      : i18next.t('payment.pay'),
    depositValid: cardCheck.ok,
    blockedReason: cardCheck.ok ? undefined : cardBlockedReason(cardCheck.errors),
    busy: command.pending,
    billing: { name: `${user.firstName} ${user.lastName}`.trim(), email: user.email },
    onPaymentMethod: (paymentMethodId: string) => command.send(paymentMethodId),
    onVerified: () => {
      command.notify({ tone: 'success', message: i18next.t('deposit.cardVerified'), durationMs: 5000, result: true });
      close(false);
      void refreshAfterCommand(command.client);
    },
    onError: (message: string) => command.notify({ tone: 'error', message, durationMs: 5000 }),
  };
}

export type DepositForm = ReturnType<typeof useDepositForm>;
