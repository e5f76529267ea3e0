/**
 * A history entry in people's words, shared by the Transactions cards and the dashboard's
 * Recent Activity: "Paid to Ravi Kumar", "Received from Ravi Kumar", "Added by card", "UPI
 * deposit, pending", who the other party is ("To ..." or "From ..."), and the tone its amount
 * is drawn in (a deposit not yet settled is pending, not money in).
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

/** A deposit still waiting for its money, or refused: the method and the state in one phrase. */
const UNSETTLED_TITLES = {
  pending: { card: 'history.pendingByCard', upi: 'history.pendingByUpi', bank_transfer: 'history.pendingByBank' },
  failed: { card: 'history.failedByCard', upi: 'history.failedByUpi', bank_transfer: 'history.failedByBank' },
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
  if (isDeposit(entry)) return depositTitle(entry);
  const name = counterparty(entry, userId);
  const out = isMoneyOut(entry, userId);
  if (entry.method === 'reversal') return i18next.t(out ? 'history.reversalTo' : 'history.reversalFrom', { name });
  if (entry.method === 'request') return i18next.t(out ? 'history.paidRequestFrom' : 'history.requestPaidBy', { name });
  return i18next.t(out ? 'history.paidTo' : 'history.receivedFrom', { name });
}

/**
 * "Added by UPI" once the money is in; "UPI deposit, pending" while it is not (nothing has
 * been added yet, and the card must not say otherwise), "UPI deposit, failed" if it never came.
 */
function depositTitle(entry: HistoryEntry): string {
  if (!isFundingMethod(entry.method)) return i18next.t('history.addedMoney');
  if (entry.status === 'pending' || entry.status === 'failed')
    return i18next.t(UNSETTLED_TITLES[entry.status][entry.method]);
  return i18next.t(FUNDING_TITLES[entry.method]);
}

/** Who the money went to or came from, for the history's "To / From" column and cards. */
export function counterpartyWords(entry: HistoryEntry, userId: string): string {
  if (entry.sender === entry.receiver) return i18next.t('transactions.self');
  const out = entry.sender === userId;
  const other = out ? entry.receiver : entry.sender;
  const who = entry.counterpartyName ? `${entry.counterpartyName} (${other.slice(0, 8)})` : other;
  return i18next.t(out ? 'transactions.toParty' : 'transactions.fromParty', { who });
}

/** The colour of the amount: only settled money in is green. */
export function amountTone(entry: HistoryEntry, userId: string): AmountTone {
  if (entry.status === 'pending') return 'pending';
  if (entry.status === 'failed') return 'failed';
  return isMoneyOut(entry, userId) ? 'debit' : 'credit';
}
