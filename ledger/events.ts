/**
 * Every event the ledger appends: one closed union, past tense, never changing shape once
 * shipped (add a new type instead). Events that move money carry their postings: signed
 * paise per account that sum to zero (the database re-checks the sum at commit).
 */
import type { AccountId, DepositMethod } from './accounts.ts';
import type { Paise } from './money.ts';

export interface Posting {
  accountId: AccountId;
  amountPaise: Paise;
}

export interface BankTransferDetails {
  accountNumber: string;
  ifscCode: string;
  bankName: string;
}
export interface UpiDetails {
  upiId: string;
}
export interface CardDetails {
  provider: string;
  paymentId: string;
}
export type DepositDetails = BankTransferDetails | UpiDetails | CardDetails;

/** The owner's display name travels with the event so read models can show counterparties. */
export interface WalletOpened {
  type: 'WalletOpened';
  data: { accountId: AccountId; displayName: string };
}
export interface DepositRequested {
  type: 'DepositRequested';
  data: {
    depositId: string;
    walletId: AccountId;
    amountPaise: Paise;
    method: DepositMethod;
    reference: string;
    details: DepositDetails;
  };
}
export interface DepositSettled {
  type: 'DepositSettled';
  data: {
    depositId: string;
    walletId: AccountId;
    amountPaise: Paise;
    method: DepositMethod;
    confirmedBy: 'admin' | 'provider';
  };
  postings: Posting[];
}
export interface DepositFailed {
  type: 'DepositFailed';
  data: { depositId: string; walletId: AccountId; reason: string };
}
export interface TransferCompleted {
  type: 'TransferCompleted';
  data: { transferId: string; fromAccountId: AccountId; toAccountId: AccountId; amountPaise: Paise; reference: string };
  postings: Posting[];
}
export interface MoneyRequested {
  type: 'MoneyRequested';
  data: { requestId: string; requesterId: AccountId; payerId: AccountId; amountPaise: Paise; reference: string };
}
/** Carries the transfer itself: accepting and paying are one event, one transaction. */
export interface MoneyRequestAccepted {
  type: 'MoneyRequestAccepted';
  data: { requestId: string; requesterId: AccountId; payerId: AccountId; amountPaise: Paise; reference: string };
  postings: Posting[];
}
export interface MoneyRequestRejected {
  type: 'MoneyRequestRejected';
  data: { requestId: string; requesterId: AccountId; payerId: AccountId };
}

/**
 * Corrections (ledger/corrections/): an admin reverses a completed movement with a new event
 * on the original's stream. The original stays; the postings mirror it; `reversesPosition`
 * links to the event being reversed (a decimal string: positions are bigint).
 */
export interface TransferReversed {
  type: 'TransferReversed';
  data: {
    transferId: string;
    fromAccountId: AccountId;
    toAccountId: AccountId;
    amountPaise: Paise;
    reason: string;
    reversedBy: string;
    reversesPosition: string;
  };
  postings: Posting[];
}
export interface DepositReversed {
  type: 'DepositReversed';
  data: {
    depositId: string;
    walletId: AccountId;
    amountPaise: Paise;
    method: DepositMethod;
    reason: string;
    reversedBy: string;
    reversesPosition: string;
  };
  postings: Posting[];
}

export interface MoneyRequestPaymentReversed {
  type: 'MoneyRequestPaymentReversed';
  data: {
    requestId: string;
    requesterId: AccountId;
    payerId: AccountId;
    amountPaise: Paise;
    reason: string;
    reversedBy: string;
    reversesPosition: string;
  };
  postings: Posting[];
}

/**
 * Disputes (ledger/disputes/): the payer of a completed transfer or of a paid money request
 * says it was wrong, on the payment's own stream, so the stream's state says "disputed" and
 * one open dispute per payment holds by the expected-version append. No money moves: an admin
 * resolves a dispute either by reversing the payment (the stream's reversal event, through
 * the four-eyes rules) or by rejecting it with a reason (DisputeRejected).
 */
export interface DisputeRaised {
  type: 'DisputeRaised';
  data: {
    disputeId: string;
    kind: 'transfer' | 'request';
    transactionId: string;
    payerId: AccountId;
    payeeId: AccountId;
    amountPaise: Paise;
    reason: string;
  };
}
/**
 * An admin upheld the open dispute but its reversal waits for a second admin (the four-eyes
 * rules filed it as approval `approvalId`): the payer is told, and the money moves when the
 * reversal is appended. A reversal done at once needs no such event: it is the resolution.
 */
export interface DisputeUpheld {
  type: 'DisputeUpheld';
  data: {
    disputeId: string;
    kind: 'transfer' | 'request';
    transactionId: string;
    payerId: AccountId;
    reason: string;
    upheldBy: string;
    approvalId: string;
  };
}
/**
 * A second admin turned down the reversal an upheld dispute waited for (approval
 * `approvalId`): the dispute is open again, undecided, and the payer is told. No money moves;
 * the reason is the rejecting admin's, when they gave one.
 */
export interface DisputeReopened {
  type: 'DisputeReopened';
  data: {
    disputeId: string;
    kind: 'transfer' | 'request';
    transactionId: string;
    payerId: AccountId;
    reason: string | null;
    reopenedBy: string;
    approvalId: string;
  };
}
export interface DisputeRejected {
  type: 'DisputeRejected';
  data: {
    disputeId: string;
    kind: 'transfer' | 'request';
    transactionId: string;
    payerId: AccountId;
    reason: string;
    rejectedBy: string;
  };
}

export type LedgerEvent =
  | WalletOpened
  | DepositRequested
  | DepositSettled
  | DepositFailed
  | TransferCompleted
  | MoneyRequested
  | MoneyRequestAccepted
  | MoneyRequestRejected
  | TransferReversed
  | DepositReversed
  | MoneyRequestPaymentReversed
  | DisputeRaised
  | DisputeUpheld
  | DisputeReopened
  | DisputeRejected;

export type LedgerEventType = LedgerEvent['type'];

/** An event without its postings: what the log's events table holds (postings have their own). */
export type EventBody = LedgerEvent extends infer E
  ? E extends LedgerEvent
    ? Pick<E, 'type' | 'data'>
    : never
  : never;

/** An event as read back from the store, with its place in the log. */
export type RecordedEvent = EventBody & {
  position: bigint;
  txId: string;
  streamId: string;
  streamVersion: number;
  metadata: EventMetadata;
  recordedAt: Date;
};

export interface EventMetadata {
  actorId?: string;
  idempotencyKey?: string;
  requestId?: string;
  command?: string;
}

export function assertNever(value: never): never {
  throw new Error(`unhandled case: ${JSON.stringify(value)}`);
}
