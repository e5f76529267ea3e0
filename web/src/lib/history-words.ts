/**
 * A history entry in people's words, shared by the Transactions cards and the dashboard's
 * Recent Activity: "Paid to Ravi Kumar", "Received from Ravi Kumar", "Added by card", and the
 * tone its amount is drawn in (a deposit not yet settled is pending, not money in).
 */
import type { TransactionRecord } from '../../../contracts/transactions.ts';

export type HistoryEntry = Pick<
  TransactionRecord,
  'sender' | 'receiver' | 'type' | 'method' | 'status' | 'counterpartyName' | 'counterpartyId'
>;

/** How each funding method reads after "Added by". */
const FUNDING_WORDS: Record<string, string> = {
  card: 'card',
  upi: 'UPI',
  bank_transfer: 'bank transfer',
};

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
  if (isDeposit(entry)) {
    const words = FUNDING_WORDS[entry.method ?? ''];
    return words ? `Added by ${words}` : 'Added money';
  }
  const name = counterparty(entry, userId);
  const out = isMoneyOut(entry, userId);
  if (entry.method === 'reversal') return out ? `Reversal to ${name}` : `Reversal from ${name}`;
  if (entry.method === 'request') return out ? `Paid request from ${name}` : `Request paid by ${name}`;
  return out ? `Paid to ${name}` : `Received from ${name}`;
}

/** The colour of the amount: only settled money in is green. */
export function amountTone(entry: HistoryEntry, userId: string): AmountTone {
  if (entry.status === 'pending') return 'pending';
  if (entry.status === 'failed') return 'failed';
  return isMoneyOut(entry, userId) ? 'debit' : 'credit';
}
