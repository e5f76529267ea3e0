/**
 * Disputes of a payment: its payer says a completed transfer (or a paid money request) was
 * wrong (DisputeRaised), and an admin either rejects that with a reason (DisputeRejected) or
 * reverses the payment (the stream's own reversal event, ledger/corrections/, which resolves
 * the open dispute). Both events go on the payment's own stream, beside the movement they
 * question: the stream's state says whether a dispute is open, and the expected-version append
 * makes a second concurrent dispute, or a rejection racing a reversal, fail instead of both
 * landing. No postings: a dispute moves no money.
 */
import type { AppendResult } from '../event-store/append.ts';
import { readStream } from '../event-store/read.ts';
import type { DisputeRaised, DisputeRejected, DisputeReopened, DisputeUpheld, RecordedEvent } from '../events.ts';
import {
  idempotencyClaim,
  metadataFor,
  previousResult,
  type CommandContext,
  type EventStore,
} from '../handle-command.ts';
import { requireReason, streamOfReversal } from '../corrections/reverse.ts';
import type { AccountId } from '../accounts.ts';
import type { Paise } from '../money.ts';
import { reject } from '../rejections.ts';

export type DisputeKind = 'transfer' | 'request';

export interface DisputedPayment {
  kind: DisputeKind;
  transactionId: string;
  payerId: AccountId;
  payeeId: AccountId;
  amountPaise: Paise;
}

export interface DisputeState {
  payment?: DisputedPayment;
  reversed: boolean;
  open?: DisputeRaised['data'];
  /** The approval the open dispute's reversal waits for, once an admin upheld it. */
  upheldApprovalId?: string;
}

export interface RaiseDisputeInput {
  disputeId: string;
  kind: DisputeKind;
  transactionId: string;
  reason: string;
}

export interface RejectDisputeInput {
  kind: DisputeKind;
  transactionId: string;
  disputeId: string;
  reason: string;
}

export interface UpholdDisputeInput {
  kind: DisputeKind;
  transactionId: string;
  disputeId: string;
  reason: string;
  approvalId: string;
}

export interface ReopenDisputeInput {
  kind: DisputeKind;
  transactionId: string;
  disputeId: string;
  /** The rejecting admin's reason, if they gave one. */
  reason: string | null;
  approvalId: string;
}

export type DisputeResult = AppendResult & { disputeId: string; transactionId: string };

/** Pure: what a payment's stream says about its disputes. */
export function evolveDispute(state: DisputeState, event: RecordedEvent): DisputeState {
  switch (event.type) {
    case 'TransferCompleted': {
      const { transferId, fromAccountId, toAccountId, amountPaise } = event.data;
      const payment = {
        kind: 'transfer' as const,
        transactionId: transferId,
        payerId: fromAccountId,
        payeeId: toAccountId,
      };
      return { ...state, payment: { ...payment, amountPaise } };
    }
    case 'MoneyRequestAccepted': {
      const { requestId, payerId, requesterId, amountPaise } = event.data;
      return {
        ...state,
        payment: { kind: 'request', transactionId: requestId, payerId, payeeId: requesterId, amountPaise },
      };
    }
    // A reversal gives the money back: it resolves the dispute that asked for it.
    case 'TransferReversed':
    case 'MoneyRequestPaymentReversed':
      return { ...state, reversed: true, open: undefined, upheldApprovalId: undefined };
    case 'DisputeRaised':
      return { ...state, open: event.data, upheldApprovalId: undefined };
    case 'DisputeUpheld':
      return { ...state, upheldApprovalId: event.data.approvalId };
    case 'DisputeReopened':
      return { ...state, upheldApprovalId: undefined };
    case 'DisputeRejected':
      return { ...state, open: undefined, upheldApprovalId: undefined };
    default:
      return state;
  }
}

function stateOf(events: readonly RecordedEvent[]): DisputeState {
  return events.reduce<DisputeState>(evolveDispute, { reversed: false });
}

/** Pure: only the payer, of a completed payment not reversed, with no dispute open. */
export function decideRaiseDispute(
  events: readonly RecordedEvent[],
  input: RaiseDisputeInput,
  actorId: string,
): DisputeRaised {
  const reason = requireReason(input.reason);
  const { payment, reversed, open } = stateOf(events);
  if (!payment || payment.kind !== input.kind) reject('transaction_not_found', 'Transaction not found');
  if (payment.payerId !== actorId) reject('not_disputable', 'Only the payer of a completed payment can dispute it');
  if (reversed) reject('already_reversed', 'This transaction has already been reversed');
  if (open) reject('dispute_already_open', 'This payment already has an open dispute');
  return { type: 'DisputeRaised', data: { disputeId: input.disputeId, ...payment, reason } };
}

/** Pure: the open dispute, by an admin who is neither party to the payment. */
export function decideRejectDispute(
  events: readonly RecordedEvent[],
  input: RejectDisputeInput,
  adminId: string,
): DisputeRejected {
  const reason = requireReason(input.reason);
  const { open } = stateOf(events);
  if (!open || open.disputeId !== input.disputeId) reject('dispute_not_open', 'This dispute is no longer open');
  if (adminId === open.payerId || adminId === open.payeeId)
    reject('actor_is_party', 'You cannot decide a dispute about a payment you take part in');
  const { disputeId, kind, transactionId, payerId } = open;
  return { type: 'DisputeRejected', data: { disputeId, kind, transactionId, payerId, reason, rejectedBy: adminId } };
}

/** Pure: the open dispute upheld by an admin who is no party, once per approval its reversal waits for. */
export function decideUpholdDispute(
  events: readonly RecordedEvent[],
  input: UpholdDisputeInput,
  adminId: string,
): DisputeUpheld {
  const reason = requireReason(input.reason);
  const { open, upheldApprovalId } = stateOf(events);
  if (!open || open.disputeId !== input.disputeId) reject('dispute_not_open', 'This dispute is no longer open');
  if (adminId === open.payerId || adminId === open.payeeId)
    reject('actor_is_party', 'You cannot decide a dispute about a payment you take part in');
  if (upheldApprovalId === input.approvalId)
    reject('dispute_already_upheld', 'This dispute is already upheld; its reversal waits for a second admin');
  const { disputeId, kind, transactionId, payerId } = open;
  return {
    type: 'DisputeUpheld',
    data: { disputeId, kind, transactionId, payerId, reason, upheldBy: adminId, approvalId: input.approvalId },
  };
}

/**
 * Pure: the upheld dispute whose reversal (approval `approvalId`) a second admin turned down
 * is open again. Any admin may turn an approval request down (withdrawing it, too) - but not a
 * party to the payment: a payee who is an admin would otherwise keep the refund from ever running.
 */
export function decideReopenDispute(
  events: readonly RecordedEvent[],
  input: ReopenDisputeInput,
  adminId: string,
): DisputeReopened {
  const { open, upheldApprovalId } = stateOf(events);
  if (!open || open.disputeId !== input.disputeId) reject('dispute_not_open', 'This dispute is no longer open');
  if (upheldApprovalId !== input.approvalId)
    reject('dispute_not_upheld', 'This dispute is not waiting for that approval');
  if (adminId === open.payerId || adminId === open.payeeId)
    reject('actor_is_party', 'You cannot decide a dispute about a payment you take part in');
  const { disputeId, kind, transactionId, payerId } = open;
  const reason = input.reason?.trim() || null;
  return {
    type: 'DisputeReopened',
    data: { disputeId, kind, transactionId, payerId, reason, reopenedBy: adminId, approvalId: input.approvalId },
  };
}

async function appendDisputeEvent(
  store: EventStore,
  command: string,
  input: { kind: DisputeKind; transactionId: string; disputeId: string },
  ctx: CommandContext,
  decide: (events: readonly RecordedEvent[]) => DisputeRaised | DisputeUpheld | DisputeReopened | DisputeRejected,
  fingerprint: unknown,
): Promise<DisputeResult> {
  const claim = idempotencyClaim(command, ctx, fingerprint);
  const seen = await previousResult<DisputeResult>(store.db, claim);
  if (seen) return seen;
  const streamId = streamOfReversal(input.kind, input.transactionId);
  const events = await readStream(store.db, streamId);
  const event = decide(events);
  const last = events.at(-1);
  const result = await store.append({
    streamId,
    expectedVersion: last ? last.streamVersion : -1,
    events: [event],
    metadata: metadataFor(command, ctx),
    idempotency: claim,
    result: { disputeId: event.data.disputeId, transactionId: input.transactionId },
  });
  return result as DisputeResult;
}

export function raiseDispute(store: EventStore, input: RaiseDisputeInput, ctx: CommandContext): Promise<DisputeResult> {
  const { disputeId: _serverMade, ...fingerprint } = input;
  return appendDisputeEvent(
    store,
    'raiseDispute',
    input,
    ctx,
    (events) => decideRaiseDispute(events, input, ctx.actorId),
    fingerprint,
  );
}

export function rejectDispute(
  store: EventStore,
  input: RejectDisputeInput,
  ctx: CommandContext,
): Promise<DisputeResult> {
  return appendDisputeEvent(
    store,
    'rejectDispute',
    input,
    ctx,
    (events) => decideRejectDispute(events, input, ctx.actorId),
    input,
  );
}

export function upholdDispute(
  store: EventStore,
  input: UpholdDisputeInput,
  ctx: CommandContext,
): Promise<DisputeResult> {
  return appendDisputeEvent(
    store,
    'upholdDispute',
    input,
    ctx,
    (events) => decideUpholdDispute(events, input, ctx.actorId),
    input,
  );
}

export function reopenDispute(
  store: EventStore,
  input: ReopenDisputeInput,
  ctx: CommandContext,
): Promise<DisputeResult> {
  return appendDisputeEvent(
    store,
    'reopenDispute',
    input,
    ctx,
    (events) => decideReopenDispute(events, input, ctx.actorId),
    input,
  );
}
