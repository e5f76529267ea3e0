/**
 * What each live event does to the tab: react-query caches updated or invalidated (the
 * screens re-render from them), and the money-received toast ("₹500 received from Asha
 * Rao"). Replay progress, the projections' status and each verify run are written into their
 * queries, so the Operations page needs no polling.
 */
import type { QueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import type { LiveEventData } from '../../../contracts/live.ts';
import { rupeesFromPaise } from '../../../contracts/money.ts';
import type { ToastInput } from '../components/ui/Toaster.tsx';
import type { UserRecord } from '../lib/api/current-user.ts';
import { formatRupees } from '../lib/format.ts';
import type { LiveEvent } from '../lib/live-events.ts';
import { currentUserKey, ledgerKey } from '../lib/query-client.ts';
import { trialBalanceQuery, withVerifyRun } from '../features/audit/api/trial-balance.ts';

export function receivedMessage(amountPaise: string, fromName: string): string {
  const amount = formatRupees(rupeesFromPaise(BigInt(amountPaise)));
  return i18next.t('live.moneyReceived', { amount, name: fromName });
}

/**
 * A deposit settled or failed says so: the amount credited, or the reason the admin gave
 * (both from the ledger's own events, through the live stream). A deposit just requested is
 * the customer's own doing and needs no toast.
 */
export function depositOutcomeToast(data: LiveEventData<'deposit'>): ToastInput | undefined {
  if (data.status === 'success' && data.amountPaise !== undefined)
    return {
      tone: 'success',
      message: i18next.t('topUp.settledToast', { amount: formatRupees(rupeesFromPaise(BigInt(data.amountPaise))) }),
    };
  if (data.status === 'failed')
    return { tone: 'error', message: i18next.t('topUp.failedToast', { reason: data.reason ?? '' }), durationMs: 6000 };
  return undefined;
}

/** Every ledger-derived read but the user record (which the balance event sets itself). */
function invalidateLedgerReads(client: QueryClient): Promise<void> {
  return client.invalidateQueries({
    queryKey: ledgerKey,
    predicate: (query) => query.queryKey[1] !== currentUserKey[1],
  });
}

export async function applyLiveEvent(
  client: QueryClient,
  notify: (toast: ToastInput) => void,
  event: LiveEvent,
): Promise<void> {
  switch (event.name) {
    case 'balance': {
      const balance = rupeesFromPaise(BigInt(event.data.balancePaise));
      client.setQueryData<UserRecord>(currentUserKey, (user) => (user ? { ...user, balance } : user));
      return invalidateLedgerReads(client);
    }
    case 'money-received':
      notify({ tone: 'success', message: receivedMessage(event.data.amountPaise, event.data.fromName) });
      return;
    case 'request':
      return invalidateLedgerReads(client);
    case 'deposit': {
      const toast = depositOutcomeToast(event.data);
      if (toast) notify(toast);
      return invalidateLedgerReads(client);
    }
    case 'dispute':
      return invalidateLedgerReads(client);
    case 'admin-users':
      return client.invalidateQueries({ queryKey: ['admin', 'users'] });
    case 'admin-disputes':
      return client.invalidateQueries({ queryKey: ['admin', 'disputes'] });
    case 'admin-deposits':
      await client.invalidateQueries({ queryKey: ['admin'] });
      return invalidateLedgerReads(client);
    case 'replay':
      client.setQueryData(['admin', 'replay', event.data.projection], event.data);
      // Progress arrives every second of a run; only its end changes the status table, and the
      // pushed status (below) shows it within seconds anyway: no call per progress event.
      if (event.data.state === 'done' || event.data.state === 'failed')
        await client.invalidateQueries({ queryKey: ['admin', 'projections'] });
      return;
    case 'projections':
      client.setQueryData(['admin', 'projections'], event.data);
      return;
    case 'verify':
      client.setQueryData(trialBalanceQuery.queryKey, (balance) => withVerifyRun(balance, event.data));
      return;
    case 'reset':
      await client.invalidateQueries({ queryKey: ['admin'] });
      return client.invalidateQueries({ queryKey: ledgerKey });
  }
}
