/**
 * Recipient verification state shared by the transfer, scan-to-pay and request dialogs
 * (spec section 4: unverified -> verifying -> verified; editing the field clears it).
 * Returns outcomes; the dialogs decide what to show. With `payees` (the transfer dialog), a
 * mobile number or a handle is looked up too (find-payee): the account is then not known to
 * the browser, only the payee's words, which the payment sends for the server to resolve.
 */
import { useCallback, useState } from 'react';
import { payeeSchema, type PayeeKind } from '../../../contracts/payees.ts';
import { SELF_TRANSFER_MESSAGE } from '../../../contracts/transactions.ts';
import { NetworkError } from './api-client.ts';
import { findPayee } from './api/find-payee.ts';
import { verifyAccount, type VerifiedAccount } from './api/verify-account.ts';

export type RecipientStatus = 'unverified' | 'verifying' | 'verified';

/** A verified recipient; `payee` when found by mobile number or handle (accountNumber is then ''). */
export interface RecipientAccount extends VerifiedAccount {
  payee?: { kind: Exclude<PayeeKind, 'account'>; key: string; shown: string };
}

export type VerifyOutcome = { ok: true; account: RecipientAccount } | { ok: false; message: string; network: boolean };

export interface Recipient {
  status: RecipientStatus;
  account: RecipientAccount | null;
  verify: (receiver: string) => Promise<VerifyOutcome>;
  clear: () => void;
}

/** Looks a receiver up: by account number always, by mobile number or handle when `payees`. */
async function lookUp(receiver: string, payees: boolean): Promise<{ message: string; account?: RecipientAccount }> {
  const parsed = payees ? payeeSchema.safeParse(receiver) : undefined;
  if (parsed && !parsed.success) return { message: parsed.error.issues[0]?.message ?? '' };
  if (parsed?.success && parsed.data.kind !== 'account') {
    const { kind, key } = parsed.data;
    const reply = await findPayee(receiver);
    if (!reply.success || !reply.data) return { message: reply.message };
    // Said at once, as for an account number (the transfer dialog's own check): the payment would be refused.
    if (reply.data.isOwnAccount) return { message: SELF_TRANSFER_MESSAGE };
    return {
      message: reply.message,
      account: { name: reply.data.name, accountNumber: '', payee: { kind, key, shown: reply.data.shown } },
    };
  }
  const reply = await verifyAccount(receiver);
  return reply.success && reply.data ? { message: reply.message, account: reply.data } : { message: reply.message };
}

export function useRecipient(options: { payees?: boolean } = {}): Recipient {
  const payees = options.payees ?? false;
  const [status, setStatus] = useState<RecipientStatus>('unverified');
  const [account, setAccount] = useState<RecipientAccount | null>(null);
  const verify = useCallback(
    async (receiver: string): Promise<VerifyOutcome> => {
      setStatus('verifying');
      try {
        const found = await lookUp(receiver.trim(), payees);
        if (found.account) {
          setAccount(found.account);
          setStatus('verified');
          return { ok: true, account: found.account };
        }
        setStatus('unverified');
        return {
          ok: false,
          message: found.message || 'Account verification failed. Please try again.',
          network: false,
        };
      } catch (error) {
        setStatus('unverified');
        return {
          ok: false,
          message: 'Failed to verify account. Please check your connection and try again.',
          network: error instanceof NetworkError,
        };
      }
    },
    [payees],
  );
  const clear = useCallback(() => {
    setStatus('unverified');
    setAccount(null);
  }, []);
  return { status, account, verify, clear };
}
