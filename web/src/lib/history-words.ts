/**
 * A history entry in people's words, shared by the Transactions cards and the dashboard's
 * Recent Activity: "Paid to Ravi Kumar", "Received from Ravi Kumar", "Added by card", and the
 * tone its amount is drawn in (a deposit not yet settled is pending, not money in).
 */
import i18next from 'i18next';
import type { TransactionRecord } from '../../../contracts/transactions.ts';

export type HistoryEntry = Pick<
  TransactionRecord,
  'sender' | 'receiver' | 'type' | 'method' | 'status' | 'counterpartyName' | 'counterpartyId'
>;

/** The title of a deposit by each funding method (keys of the history group). */
const FUNDING_TITLES = {
  card: 'history.addedByCard',
  upi: 'history.addedByUpi',
  bank_transfer: 'history.addedByBank',
} as const;

function isFundingMethod(method: string | null | undefined): method is keyof typeof FUNDING_TITLES {
  return method !== null && method !== undefined && Object.hasOwn(FUNDING_TITLES, method);
}

export type AmountTone = 'credit' | 'debit' | 'pending' | 'failed';

function counterparty(entry: HistoryEntry, userId: string): string {
  const other = entry.sender === userId ? entry.receiver : entry.sender;
  return entry.counterpartyName ?? entry.counterpartyId ?? other;
}

function isDeposit(entry: HistoryEntry): boolean {
  return entry.type === 'deposit' || entry.sender === entry.receiver;
}

/** Money left the wallet (a payment, a request paid, a reversal taken back). */
export function isMoneyOut(entry: HistoryEntry, userId: string): boolean {
  return !isDeposit(entry) && entry.sender === userId;
}

/** The card's title, from the user's side of the entry. */
export function historyTitle(entry: HistoryEntry, userId: string): string {
  if (isDeposit(entry))
    return i18next.t(isFundingMethod(entry.method) ? FUNDING_TITLES[entry.method] : 'history.addedMoney');
  const name = counterparty(entry, userId);
  const out = isMoneyOut(entry, userId);
  if (entry.method === 'reversal') return i18next.t(out ? 'history.reversalTo' : 'history.reversalFrom', { name });
  if (entry.method === 'request') return i18next.t(out ? 'history.paidRequestFrom' : 'history.requestPaidBy', { name });
  return i18next.t(out ? 'history.paidTo' : 'history.receivedFrom', { name });
}

/** The colour of the amount: only settled money in is green. */
export function amountTone(entry: HistoryEntry, userId: string): AmountTone {
  if (entry.status === 'pending') return 'pending';
  if (entry.status === 'failed') return 'failed';
  return isMoneyOut(entry, userId) ? 'debit' : 'credit';
}
