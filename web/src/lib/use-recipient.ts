/**
 * Recipient verification state shared by the transfer, scan-to-pay and request dialogs
 * (spec section 4: unverified -> verifying -> verified; editing the field clears it).
 * Returns outcomes; the dialogs decide what to show.
 */
import { useCallback, useState } from 'react';
import { NetworkError } from './api-client.ts';
import { verifyAccount, type VerifiedAccount } from './api/verify-account.ts';

export type RecipientStatus = 'unverified' | 'verifying' | 'verified';

export type VerifyOutcome = { ok: true; account: VerifiedAccount } | { ok: false; message: string; network: boolean };

export interface Recipient {
  status: RecipientStatus;
  account: VerifiedAccount | null;
  verify: (receiver: string) => Promise<VerifyOutcome>;
  clear: () => void;
}

export function useRecipient(): Recipient {
  const [status, setStatus] = useState<RecipientStatus>('unverified');
  const [account, setAccount] = useState<VerifiedAccount | null>(null);
  const verify = useCallback(async (receiver: string): Promise<VerifyOutcome> => {
    setStatus('verifying');
    try {
      const reply = await verifyAccount(receiver.trim());
      if (reply.success && reply.data) {
        setAccount(reply.data);
        setStatus('verified');
        return { ok: true, account: reply.data };
      }
      setStatus('unverified');
      return { ok: false, message: reply.message || 'Account verification failed. Please try again.', network: false };
    } catch (error) {
      setStatus('unverified');
      return {
        ok: false,
        message: 'Failed to verify account. Please check your connection and try again.',
        network: error instanceof NetworkError,
      };
    }
  }, []);
  const clear = useCallback(() => {
    setStatus('unverified');
    setAccount(null);
  }, []);
  return { status, account, verify, clear };
}
