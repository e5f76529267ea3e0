/**
 * The ledger's event types as values (ledger/events.ts states them as types only): the one list
 * that other folders' lists derive from - the explorer's filter, the admin API's validation,
 * the statement's reversible rows - so a new event type is spelled here and in its interface,
 * nowhere else in TypeScript. Pure data, so contracts/ (and through it the web app) may import
 * it without the rest of the ledger; ./event-types.test.ts holds each list to the union.
 */
import type { LedgerEventType } from './events.ts';

/** Every event type, in the order of the union. */
export const LEDGER_EVENT_TYPES = [
  'WalletOpened',
  'DepositRequested',
  'DepositSettled',
  'DepositFailed',
  'TransferCompleted',
  'MoneyRequested',
  'MoneyRequestAccepted',
  'MoneyRequestRejected',
  'TransferReversed',
  'DepositReversed',
  'MoneyRequestPaymentReversed',
  'DisputeRaised',
  'DisputeUpheld',
  'DisputeReopened',
  'DisputeRejected',
] as const satisfies readonly LedgerEventType[];

/** What an admin can reverse, each with the event that reverses it (./corrections/reverse.ts). */
export const REVERSED_BY = {
  TransferCompleted: 'TransferReversed',
  DepositSettled: 'DepositReversed',
  MoneyRequestAccepted: 'MoneyRequestPaymentReversed',
} as const satisfies Partial<Record<LedgerEventType, LedgerEventType>>;

/** The event types that carry postings: what moves money, and so what a statement lists. */
export const POSTING_EVENT_TYPES = [
  'DepositSettled',
  'TransferCompleted',
  'MoneyRequestAccepted',
  'TransferReversed',
  'DepositReversed',
  'MoneyRequestPaymentReversed',
] as const satisfies readonly LedgerEventType[];
