/**
 * The pay step shared by Transfer and Scan to pay (spec sections 4, 5, 8): amount,
 * reference, PIN; the shared transfer schema plus the two rules that need client state
 * (recipient verified, amount within balance); one Idempotency-Key per submission; on
 * success the ledger reads refresh with read-your-writes.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { transferSchema } from '../../../../../contracts/transactions.ts';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { NetworkError } from '../../../lib/api-client.ts';
import { validate, type FieldErrors } from '../../../lib/forms.ts';
import { useSubmissionKey } from '../../../lib/idempotency.ts';
import { balancePaise, rupeesFromPaise } from '../../../lib/money-input.ts';
import { refreshAfterCommand } from '../../../lib/query-client.ts';
import { useTransferFunds } from '../api/transfer-funds.ts';

export interface PayValues {
  amount: string;
  reference: string;
  transactionPin: string;
}

export const EMPTY_PAY: PayValues = { amount: '', reference: '', transactionPin: '' };

export function checkTransfer(
  input: { receiver: string; verified: boolean; balance: number } & PayValues,
): { ok: true; amountRupees: number; reference: string } | { ok: false; errors: FieldErrors } {
  const checked = validate(transferSchema, {
    receiver: input.receiver,
    amount: input.amount,
    reference: input.reference,
    transactionPin: input.transactionPin,
  });
  const errors: FieldErrors = checked.ok ? {} : { ...checked.errors };
  if (!errors.receiver && !input.verified) errors.receiver = 'Please verify the account first';
  if (checked.ok && checked.data.amount > balancePaise(input.balance)) errors.amount = 'Insufficient balance';
  if (!checked.ok || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, amountRupees: rupeesFromPaise(checked.data.amount), reference: checked.data.reference };
}

export function usePayment(options: { userId: string; balance: number; onPaid: () => void }) {
  const [values, setValues] = useState<PayValues>(EMPTY_PAY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const transfer = useTransferFunds();
  const keys = useSubmissionKey();
  const notify = useToast();
  const client = useQueryClient();

  function set(field: keyof PayValues, value: string): void {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: '' }));
  }

  function reset(): void {
    setValues(EMPTY_PAY);
    setErrors({});
    keys.complete();
  }

  async function pay(receiver: string, verified: boolean): Promise<void> {
    const checked = checkTransfer({ receiver, verified, balance: options.balance, ...values });
    if (!checked.ok) {
      setErrors(checked.errors);
      notify({ tone: 'warning', message: 'Please fix the errors before proceeding' });
      return;
    }
    setErrors({});
    const body = {
      receiver: receiver.trim(),
      amount: checked.amountRupees,
      reference: checked.reference,
      transactionPin: values.transactionPin,
      sender: options.userId,
      type: 'debit' as const,
      status: 'success' as const,
    };
    try {
      const reply = await transfer.mutateAsync({ body, idempotencyKey: keys.keyFor(body) });
      keys.complete();
      if (reply.success) {
        notify({ tone: 'success', message: reply.message || 'Transfer completed successfully!' });
        reset();
        options.onPaid();
        await refreshAfterCommand(client);
      } else if (reply.code === 'PIN_NOT_SET') {
        notify({ tone: 'error', message: 'Please set your transaction PIN first in settings.', durationMs: 5000 });
      } else {
        notify({ tone: 'error', message: reply.message || 'Transfer failed. Please try again.' });
      }
    } catch (error) {
      // The key is kept: retrying the same payment must not pay twice.
      notify({
        tone: 'error',
        message:
          error instanceof NetworkError
            ? 'Transfer failed. Please check your connection and try again.'
            : 'Transfer failed. Please try again.',
      });
    }
  }

  return { values, errors, set, reset, pay, paying: transfer.isPending, setErrors };
}
