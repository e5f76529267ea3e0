/**
 * Transfer Funds' state, apart from its view (TransferDialog.tsx): the payee typed or picked
 * from the recent ones, its verification (an account number, a mobile number or a handle),
 * the deep link's payee verified as the dialog opens, and Continue to the confirmation. The
 * payment itself is usePayment.ts.
 */
import i18next from 'i18next';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { SELF_TRANSFER_MESSAGE } from '../../../../../contracts/transactions.ts';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { focusFirstInvalid } from '../../../lib/focus.ts';
import { useRecipient } from '../../../lib/use-recipient.ts';
import { focusPayAmount } from './PayFields.tsx';
import { usePayment } from './usePayment.ts';

export interface TransferDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  userId: string;
  balance: number;
  initialReceiver?: string | undefined;
}

export function useTransferDialog({ open, onOpenChange, userId, balance, initialReceiver }: TransferDialogProps) {
  const [receiver, setReceiver] = useState('');
  const recipient = useRecipient({ payees: true });
  const notify = useToast();
  const payment = usePayment({ userId, balance, onPaid: () => close(false) });
  const autoVerified = useRef<string | null>(null);

  function close(next: boolean): void {
    if (!next) {
      setReceiver('');
      recipient.clear();
      payment.reset();
    }
    onOpenChange(next);
  }

  /** The payee field's reason ('' clears it). */
  function refuse(message: string): void {
    payment.setErrors((current) => ({ ...current, receiver: message }));
  }

  async function verify(value: string = receiver): Promise<void> {
    if (!value.trim()) return refuse(i18next.t('send.accountRequired'));
    if (value.trim() === userId) return refuse(SELF_TRANSFER_MESSAGE);
    const outcome = await recipient.verify(value);
    if (!outcome.ok) return refuse(outcome.message);
    refuse('');
    notify({ tone: 'success', message: i18next.t('send.accountVerified'), durationMs: 3000 });
    focusPayAmount();
  }

  useEffect(() => {
    if (!open || !initialReceiver || autoVerified.current === initialReceiver) return;
    autoVerified.current = initialReceiver;
    setReceiver(initialReceiver);
    void verify(initialReceiver);
    // verify is recreated each render; the ref, not the dependency list, guards against repeats.
  }, [open, initialReceiver]);

  function submit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    const reviewed = payment.review(receiver, recipient.status === 'verified', recipient.account?.payee?.key);
    if (!reviewed) focusFirstInvalid(event.currentTarget);
  }

  /** A recent payee: fills the field and verifies it, as typing and Verify would. */
  function pick(accountNumber: string): void {
    setReceiver(accountNumber);
    refuse('');
    void verify(accountNumber);
  }

  /** Typing in the payee field: whatever was verified no longer is. */
  function edit(value: string): void {
    setReceiver(value);
    recipient.clear();
    refuse('');
  }

  /** Change: back to an empty payee field. */
  function change(): void {
    recipient.clear();
    setReceiver('');
  }

  return { receiver, recipient, payment, close, verify, submit, pick, edit, change };
}

export type TransferDialogState = ReturnType<typeof useTransferDialog>;
