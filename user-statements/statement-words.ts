/**
 * How a wallet's own statement says its lines, in people's words, the same way in the CSV
 * and the PDF: what happened and with whom ("Paid to Ravi Kumar", "Received from Asha Rao",
 * "Added by card"; in Hindi for the PDF of a reader of the Hindi app), when in India Standard
 * Time ("1 Apr 2025, 1:30 am", the web app's format), and rupees with the sign (₹1,23,456.78,
 * Indian digit grouping). Computed from the statement line alone: the event type, the amount's
 * sign and the counterparty the accounts projection recorded.
 */
import type { DocumentLanguage } from '../contracts/fields.ts';
import { STATEMENT_TIME_ZONE } from '../contracts/statements.ts';
import type { LedgerEventType } from '../ledger/index.ts';

/** What describeLine reads of a statement line. */
export interface DescribedLine {
  event_type: LedgerEventType;
  amount_paise: bigint;
  counterparty_id: string | null;
  counterparty_name: string | null;
}

/** The words a line's description is made of, in one language. */
interface LineWords {
  /** How a deposit's money came in, by its funding account (projector.funding_name's accounts). */
  funding: Readonly<Record<string, string>>;
  someFunding: string;
  someAccount: string;
  paidTo(name: string): string;
  receivedFrom(name: string): string;
  moneyRequest: string;
  returnedTo(name: string): string;
  refundFrom(name: string): string;
  addedBy(funding: string): string;
  depositTo(name: string): string;
  depositReversed(funding: string): string;
  depositReversedFrom(name: string): string;
  requested(time: string): string;
}

/**
 * In each language the web app has: the Hindi are the history's (`history` in
 * web/src/i18n/resources/hi.ts) where it says the same thing.
 */
const LINE_WORDS: Record<DocumentLanguage, LineWords> = {
  en: {
    funding: { 'funding:card': 'card', 'funding:upi': 'UPI', 'funding:bank_transfer': 'bank transfer' },
    someFunding: 'a funding account',
    someAccount: 'another account',
    paidTo: (name: string) => `Paid to ${name}`,
    receivedFrom: (name: string) => `Received from ${name}`,
    moneyRequest: ' (money request)',
    returnedTo: (name: string) => `Payment reversed: returned to ${name}`,
    refundFrom: (name: string) => `Payment reversed: refund from ${name}`,
    addedBy: (funding: string) => `Added by ${funding}`,
    depositTo: (name: string) => `Deposit to ${name}`,
    depositReversed: (funding: string) => `Deposit reversed (${funding})`,
    depositReversedFrom: (name: string) => `Deposit reversed from ${name}`,
    requested: (time: string) => ` (requested ${time})`,
  },
  hi: {
    funding: { 'funding:card': 'कार्ड', 'funding:upi': 'UPI', 'funding:bank_transfer': 'बैंक ट्रांसफ़र' },
    someFunding: 'फ़ंडिंग खाता',
    someAccount: 'दूसरा खाता',
    paidTo: (name: string) => `${name} को भुगतान किया`,
    receivedFrom: (name: string) => `${name} से मिले`,
    moneyRequest: ' (पैसे का अनुरोध)',
    returnedTo: (name: string) => `भुगतान रिवर्स हुआ: ${name} को लौटाया`,
    refundFrom: (name: string) => `भुगतान रिवर्स हुआ: ${name} से रिफ़ंड`,
    addedBy: (funding: string) => `${funding} से जोड़े गए`,
    depositTo: (name: string) => `${name} में जमा`,
    depositReversed: (funding: string) => `जमा रिवर्स हुआ (${funding})`,
    depositReversedFrom: (name: string) => `${name} से जमा रिवर्स हुआ`,
    requested: (time: string) => ` (अनुरोध ${time})`,
  },
};

function fundingWords(line: DescribedLine, words: LineWords): string {
  return (line.counterparty_id && words.funding[line.counterparty_id]) ?? line.counterparty_name ?? words.someFunding;
}

function counterparty(line: DescribedLine, words: LineWords): string {
  return line.counterparty_name ?? line.counterparty_id ?? words.someAccount;
}

/**
 * One line's description, in English unless asked for Hindi. Money out is a negative amount.
 * A funding account's own lines (the admin's export of one) name the wallet the deposit went to.
 */
export function describeLine(line: DescribedLine, language: DocumentLanguage = 'en'): string {
  const words = LINE_WORDS[language];
  const out = line.amount_paise < 0n;
  const name = counterparty(line, words);
  // A wallet's deposit lines have a funding account on the other side; a funding account's have the wallet.
  const walletSide = line.counterparty_id?.startsWith('funding:') ?? false;
  switch (line.event_type) {
    case 'TransferCompleted':
      return out ? words.paidTo(name) : words.receivedFrom(name);
    case 'MoneyRequestAccepted':
      return (out ? words.paidTo(name) : words.receivedFrom(name)) + words.moneyRequest;
    case 'TransferReversed':
    case 'MoneyRequestPaymentReversed':
      return out ? words.returnedTo(name) : words.refundFrom(name);
    case 'DepositSettled':
      return walletSide ? words.addedBy(fundingWords(line, words)) : words.depositTo(name);
    case 'DepositReversed':
      return walletSide ? words.depositReversed(fundingWords(line, words)) : words.depositReversedFrom(name);
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
export function requestedNote(
  line: {
    event_type: LedgerEventType;
    recorded_at: Date;
    history_created_at: Date | null;
  },
  language: DocumentLanguage = 'en',
): string {
  if (line.event_type !== 'DepositSettled' || !line.history_created_at) return '';
  const requested = istTime(line.history_created_at);
  return requested === istTime(line.recorded_at) ? '' : LINE_WORDS[language].requested(requested);
}

const enIn = new Intl.NumberFormat('en-IN');

/** "₹1,00,000.50" / "-₹12.05": exact from paise (the whole part grouped as a bigint). */
export function rupeeText(paise: bigint): string {
  const sign = paise < 0n ? '-' : '';
  const absolute = paise < 0n ? -paise : paise;
  return `${sign}₹${enIn.format(absolute / 100n)}.${(absolute % 100n).toString().padStart(2, '0')}`;
}
