/**
 * Corrections: an admin reverses a completed transfer, a settled deposit or the payment of an
 * accepted money request. The reversal is a new event on the original's stream
 * (TransferReversed on transfer-<id>, DepositReversed on deposit-<id>,
 * MoneyRequestPaymentReversed on request-<id>) whose postings mirror the original's; the
 * original stays untouched.
 *
 * Why on the same stream: the stream's state then says "reversed", and the expected-version
 * append makes a second reversal (even a concurrent one) fail instead of moving money twice.
 * The funds check of `ledger.append` still applies: a reversal that would take a wallet below
 * zero is refused (`insufficient_funds`, naming the account) and appends nothing.
 */
import type { AppendResult } from '../event-store/append.ts';
import { readStream } from '../event-store/read.ts';
import { evolveDeposit, depositStream, type DepositState } from '../deposits/deposit.ts';
import { transferStream } from '../transfers/transfer.ts';
import { evolveMoneyRequest, moneyRequestStream, type MoneyRequestState } from '../money-requests/money-request.ts';
import { fundingAccount } from '../accounts.ts';
import type { DepositReversed, MoneyRequestPaymentReversed, RecordedEvent, TransferReversed } from '../events.ts';
import {
  idempotencyClaim,
  metadataFor,
  previousResult,
  type CommandContext,
  type EventStore,
} from '../handle-command.ts';
import { reject } from '../rejections.ts';

export const REVERSAL_KINDS = ['transfer', 'deposit', 'request'] as const;
export type ReversalKind = (typeof REVERSAL_KINDS)[number];

export const MIN_REASON_LENGTH = 3;
export const MAX_REASON_LENGTH = 500;

export interface ReverseInput {
  kind: ReversalKind;
  /** The transfer, deposit or money request id (the transaction id users see). */
  transactionId: string;
  reason: string;
}

export type ReversalResult = AppendResult & {
  kind: ReversalKind;
  transactionId: string;
  /** The wallets whose balances the reversal changed (for the caller's messages). */
  walletIds: string[];
};

export function requireReason(reason: string): string {
  const trimmed = reason.trim();
  if (trimmed.length < MIN_REASON_LENGTH || trimmed.length > MAX_REASON_LENGTH) {
    reject('invalid_reason', `A reason of ${MIN_REASON_LENGTH} to ${MAX_REASON_LENGTH} characters is required`);
  }
  return trimmed;
}

export function streamOfReversal(kind: ReversalKind, transactionId: string): string {
  switch (kind) {
    case 'transfer':
      return transferStream(transactionId);
    case 'deposit':
      return depositStream(transactionId);
    case 'request':
      return moneyRequestStream(transactionId);
  }
}

// ---- transfers -----------------------------------------------------------------------

/** Pure: the reversal of a transfer stream's events, or the reason it cannot be reversed. */
export function decideReverseTransfer(
  events: readonly RecordedEvent[],
  reason: string,
  adminId: string,
): TransferReversed {
  const reasonText = requireReason(reason);
  let completed: Extract<RecordedEvent, { type: 'TransferCompleted' }> | undefined;
  for (const event of events) {
    if (event.type === 'TransferReversed') reject('already_reversed', 'This transaction has already been reversed');
    if (event.type === 'TransferCompleted') completed = event;
  }
  if (!completed) reject('transaction_not_found', 'Transaction not found');
  const { transferId, fromAccountId, toAccountId, amountPaise } = completed.data;
  return {
    type: 'TransferReversed',
    data: {
      transferId,
      fromAccountId,
      toAccountId,
      amountPaise,
      reason: reasonText,
      reversedBy: adminId,
      reversesPosition: completed.position.toString(),
    },
    postings: [
      { accountId: toAccountId, amountPaise: -amountPaise },
      { accountId: fromAccountId, amountPaise },
    ],
  };
}

// ---- deposits ------------------------------------------------------------------------

/** Pure: only a settled deposit can be reversed; the money goes back to its funding account. */
export function decideReverseDeposit(
  events: readonly RecordedEvent[],
  reason: string,
  adminId: string,
): DepositReversed {
  const reasonText = requireReason(reason);
  const state = events.reduce<DepositState>(evolveDeposit, { status: 'absent', version: -1 });
  if (state.status === 'absent') reject('transaction_not_found', 'Transaction not found');
  if (state.status === 'reversed') reject('already_reversed', 'This transaction has already been reversed');
  if (state.status !== 'settled')
    reject('not_reversible', `Only a settled deposit can be reversed; this one is ${state.status}`);
  const settled = events.find((event) => event.type === 'DepositSettled');
  if (!settled) reject('not_reversible', 'Only a settled deposit can be reversed');
  const { depositId, walletId, amountPaise, method } = state.request;
  return {
    type: 'DepositReversed',
    data: {
      depositId,
      walletId,
      amountPaise,
      method,
      reason: reasonText,
      reversedBy: adminId,
      reversesPosition: settled.position.toString(),
    },
    postings: [
      { accountId: walletId, amountPaise: -amountPaise },
      { accountId: fundingAccount(method), amountPaise },
    ],
  };
}

// ---- money request payments ----------------------------------------------------------

/** Pure: only an accepted (paid) request can be reversed; the requester pays the payer back. */
export function decideReverseRequestPayment(
  events: readonly RecordedEvent[],
  reason: string,
  adminId: string,
): MoneyRequestPaymentReversed {
  const reasonText = requireReason(reason);
  const state = events.reduce<MoneyRequestState>(evolveMoneyRequest, { status: 'absent', version: -1 });
  if (state.status === 'absent') reject('transaction_not_found', 'Transaction not found');
  if (state.status === 'reversed') reject('already_reversed', 'This transaction has already been reversed');
  if (state.status !== 'accepted')
    reject('not_reversible', `Only an accepted (paid) request can be reversed; this one is ${state.status}`);
  const accepted = events.find((event) => event.type === 'MoneyRequestAccepted');
  if (!accepted) reject('not_reversible', 'Only an accepted (paid) request can be reversed');
  const { requestId, requesterId, payerId, amountPaise } = state.request;
  return {
    type: 'MoneyRequestPaymentReversed',
    data: {
      requestId,
      requesterId,
      payerId,
      amountPaise,
      reason: reasonText,
      reversedBy: adminId,
      reversesPosition: accepted.position.toString(),
    },
    postings: [
      { accountId: requesterId, amountPaise: -amountPaise },
      { accountId: payerId, amountPaise },
    ],
  };
}

type Reversal = TransferReversed | DepositReversed | MoneyRequestPaymentReversed;

export function decideReversal(
  kind: ReversalKind,
  events: readonly RecordedEvent[],
  reason: string,
  adminId: string,
): Reversal {
  const reversal = decideReversalOf(kind, events, reason, adminId);
  requireNotParty(reversal, adminId);
  return reversal;
}

function decideReversalOf(
  kind: ReversalKind,
  events: readonly RecordedEvent[],
  reason: string,
  adminId: string,
): Reversal {
  switch (kind) {
    case 'transfer':
      return decideReverseTransfer(events, reason, adminId);
    case 'deposit':
      return decideReverseDeposit(events, reason, adminId);
    case 'request':
      return decideReverseRequestPayment(events, reason, adminId);
  }
}

/**
 * An admin who takes part in a movement (payer, payee or depositor) cannot reverse it: a
 * reversal moves money, and one admin could otherwise pay themselves back at will.
 */
function requireNotParty(reversal: Reversal, adminId: string): void {
  if (walletsOf(reversal).includes(adminId))
    reject('actor_is_party', 'You cannot reverse a transaction you take part in');
}

function walletsOf(reversal: Reversal): string[] {
  switch (reversal.type) {
    case 'TransferReversed':
      return [reversal.data.fromAccountId, reversal.data.toAccountId];
    case 'DepositReversed':
      return [reversal.data.walletId];
    case 'MoneyRequestPaymentReversed':
      return [reversal.data.payerId, reversal.data.requesterId];
  }
}

// ---- the command ---------------------------------------------------------------------

export async function reverseTransaction(
  store: EventStore,
  input: ReverseInput,
  ctx: CommandContext,
): Promise<ReversalResult> {
  const claim = idempotencyClaim('reverseTransaction', ctx, input);
  const seen = await previousResult<ReversalResult>(store.db, claim);
  if (seen) return seen;
  const streamId = streamOfReversal(input.kind, input.transactionId);
  const events = await readStream(store.db, streamId);
  const reversal = decideReversal(input.kind, events, input.reason, ctx.actorId);
  const walletIds = walletsOf(reversal);
  const last = events.at(-1);
  const result = await store.append({
    streamId,
    // The version the decision was made on: a concurrent reversal makes this append fail.
    expectedVersion: last ? last.streamVersion : -1,
    events: [reversal],
    metadata: metadataFor('reverseTransaction', ctx),
    idempotency: claim,
    result: { kind: input.kind, transactionId: input.transactionId, walletIds },
  });
  return result as ReversalResult;
}
