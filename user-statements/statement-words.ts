/**
 * How a wallet's own statement says its lines, in people's words, the same way in the CSV
 * and the PDF: what happened and with whom ("Paid to Ravi Kumar", "Received from Asha Rao",
 * "Added by card"), when in India Standard Time ("1 Apr 2025, 1:30 am", the web app's format), and rupees with the
 * sign (₹1,23,456.78, Indian digit grouping). Computed from the statement line alone: the
 * event type, the amount's sign and the counterparty the accounts projection recorded.
 */
import { STATEMENT_TIME_ZONE } from '../contracts/statements.ts';
import type { LedgerEventType } from '../ledger/index.ts';

/** What describeLine reads of a statement line. */
export interface DescribedLine {
  event_type: LedgerEventType;
  amount_paise: bigint;
  counterparty_id: string | null;
  counterparty_name: string | null;
}

/** How a deposit's money came in, by its funding account (projector.funding_name's accounts). */
const FUNDING_WORDS: Record<string, string> = {
  'funding:card': 'card',
  'funding:upi': 'UPI',
  'funding:bank_transfer': 'bank transfer',
};

function fundingWords(line: DescribedLine): string {
  return (line.counterparty_id && FUNDING_WORDS[line.counterparty_id]) ?? line.counterparty_name ?? 'a funding account';
}

function counterparty(line: DescribedLine): string {
  return line.counterparty_name ?? line.counterparty_id ?? 'another account';
}

/**
 * One line's description. Money out is a negative amount. A funding account's own lines
 * (the admin's export of one) name the wallet the deposit went to.
 */
export function describeLine(line: DescribedLine): string {
  const out = line.amount_paise < 0n;
  // A wallet's deposit lines have a funding account on the other side; a funding account's have the wallet.
  const walletSide = line.counterparty_id?.startsWith('funding:') ?? false;
  switch (line.event_type) {
    case 'TransferCompleted':
      return out ? `Paid to ${counterparty(line)}` : `Received from ${counterparty(line)}`;
    case 'MoneyRequestAccepted':
      return out
        ? `Paid to ${counterparty(line)} (money request)`
        : `Received from ${counterparty(line)} (money request)`;
    case 'TransferReversed':
    case 'MoneyRequestPaymentReversed':
      return out
        ? `Payment reversed: returned to ${counterparty(line)}`
        : `Payment reversed: refund from ${counterparty(line)}`;
    case 'DepositSettled':
      return walletSide ? `Added by ${fundingWords(line)}` : `Deposit to ${counterparty(line)}`;
    case 'DepositReversed':
      return walletSide ? `Deposit reversed (${fundingWords(line)})` : `Deposit reversed from ${counterparty(line)}`;
    default:
      return line.event_type;
  }
}

const istParts = new Intl.DateTimeFormat('en-IN', {
  timeZone: STATEMENT_TIME_ZONE,
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  hourCycle: 'h12',
});

/**
 * "1 Apr 2025, 1:30 am": India Standard Time, 12-hour - the web app's one date format
 * (web/src/lib/format.ts), so a statement, a receipt and the history say a moment the same way
 * (statements said 01:30 where the app said 1:30 am). Built from parts so the shape is ours
 * and not ICU's.
 */
export function istTime(instant: Date): string {
  const parts = istParts.formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((item) => item.type === type)?.value ?? '';
  return `${part('day')} ${part('month')} ${part('year')}, ${part('hour')}:${part('minute')} ${part('dayPeriod').toLowerCase()}`;
}

/**
 * A settled deposit's line is dated when the money landed; the history lists the deposit at
 * its request. Where the two differ, the line says the request's time too, and which time it
 * is: ' (requested 10 Mar 2025, 10:00 am)'. Empty for any other line.
 */
export function requestedNote(line: {
  event_type: LedgerEventType;
  recorded_at: Date;
  history_created_at: Date | null;
}): string {
  if (line.event_type !== 'DepositSettled' || !line.history_created_at) return '';
  const requested = istTime(line.history_created_at);
  return requested === istTime(line.recorded_at) ? '' : ` (requested ${requested})`;
}

const enIn = new Intl.NumberFormat('en-IN');

/** "₹1,00,000.50" / "-₹12.05": exact from paise (the whole part grouped as a bigint). */
export function rupeeText(paise: bigint): string {
  const sign = paise < 0n ? '-' : '';
  const absolute = paise < 0n ? -paise : paise;
  return `${sign}₹${enIn.format(absolute / 100n)}.${(absolute % 100n).toString().padStart(2, '0')}`;
}
