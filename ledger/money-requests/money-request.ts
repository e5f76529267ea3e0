/**
 * Money requests: a requester asks a payer for money. Only the payer (the request's
 * receiver) may accept or reject, only while it is pending. Accepting moves the money in
 * the same event, so a request is never accepted without being paid, nor paid twice.
 */
import { NO_STREAM, type AppendResult } from '../event-store/append.ts';
import { readStream } from '../event-store/read.ts';
import {
  assertNever,
  type LedgerEvent,
  type MoneyRequestAccepted,
  type MoneyRequestRejected,
  type MoneyRequested,
  type RecordedEvent,
} from '../events.ts';
import {
  idempotencyClaim,
  metadataFor,
  previousResult,
  type CommandContext,
  type EventStore,
} from '../handle-command.ts';
import { MAX_REQUEST_PAISE, MIN_REQUEST_PAISE } from '../limits.ts';
import type { Paise } from '../money.ts';
import { reject } from '../rejections.ts';
import { requireAmountInRange, requireReference } from '../validation.ts';
import { requireWallet } from '../wallet-accounts/require-wallet.ts';

export type MoneyRequestState =
  | { status: 'absent'; version: number }
  | { status: 'pending' | 'accepted' | 'rejected' | 'reversed'; version: number; request: MoneyRequested['data'] };

export type MoneyRequestResult = AppendResult & { requestId: string };

export function moneyRequestStream(requestId: string): string {
  return `request-${requestId}`;
}

export function evolveMoneyRequest(state: MoneyRequestState, event: RecordedEvent): MoneyRequestState {
  switch (event.type) {
    case 'MoneyRequested':
      return { status: 'pending', version: event.streamVersion, request: event.data };
    case 'MoneyRequestAccepted':
      return state.status === 'absent' ? state : { ...state, status: 'accepted', version: event.streamVersion };
    case 'MoneyRequestRejected':
      return state.status === 'absent' ? state : { ...state, status: 'rejected', version: event.streamVersion };
    case 'MoneyRequestPaymentReversed':
      return state.status === 'absent' ? state : { ...state, status: 'reversed', version: event.streamVersion };
    // A dispute of the request's payment (on this stream) leaves it paid; the version moves on.
    case 'DisputeRaised':
    case 'DisputeUpheld':
    case 'DisputeReopened':
    case 'DisputeRejected':
      return state.status === 'absent' ? state : { ...state, version: event.streamVersion };
    case 'WalletOpened':
    case 'DepositRequested':
    case 'DepositSettled':
    case 'DepositFailed':
    case 'TransferCompleted':
    case 'TransferReversed':
    case 'DepositReversed':
      return state;
    default:
      return assertNever(event);
  }
}

// ---- ask -----------------------------------------------------------------------------

export interface RequestMoneyInput {
  requestId: string;
  requesterId: string;
  payerId: string;
  amountPaise: Paise;
  reference: string;
}

export function decideRequestMoney(input: RequestMoneyInput): MoneyRequested {
  if (input.requesterId === input.payerId) reject('self_transfer', 'Cannot send request to yourself');
  requireAmountInRange(input.amountPaise, MIN_REQUEST_PAISE, MAX_REQUEST_PAISE);
  requireReference(input.reference);
  return { type: 'MoneyRequested', data: { ...input, reference: input.reference.trim() } };
}

export async function requestMoney(
  store: EventStore,
  input: RequestMoneyInput,
  ctx: CommandContext,
): Promise<MoneyRequestResult> {
  const event = decideRequestMoney(input);
  await requireWallet(store.db, input.requesterId);
  await requireWallet(store.db, input.payerId);
  const { requestId, ...fingerprint } = input;
  const result = await store.append({
    streamId: moneyRequestStream(requestId),
    expectedVersion: NO_STREAM,
    events: [event],
    metadata: metadataFor('requestMoney', ctx),
    idempotency: idempotencyClaim('requestMoney', ctx, fingerprint),
    result: { requestId },
  });
  return result as MoneyRequestResult;
}

// ---- answer --------------------------------------------------------------------------

export interface AnswerMoneyRequestInput {
  requestId: string;
  /** The signed-in user answering: must be the request's payer. */
  payerId: string;
}

function requirePendingFor(state: MoneyRequestState, payerId: string): MoneyRequested['data'] {
  if (state.status === 'absent') reject('request_not_found', 'Request not found');
  if (state.request.payerId !== payerId) reject('not_request_receiver', 'Only the receiver of a request can answer it');
  if (state.status !== 'pending') reject('request_not_pending', 'Request has already been processed');
  return state.request;
}

export function decideAcceptMoneyRequest(state: MoneyRequestState, payerId: string): MoneyRequestAccepted {
  const request = requirePendingFor(state, payerId);
  const { requestId, requesterId, amountPaise, reference } = request;
  return {
    type: 'MoneyRequestAccepted',
    data: { requestId, requesterId, payerId, amountPaise, reference },
    postings: [
      { accountId: payerId, amountPaise: -amountPaise },
      { accountId: requesterId, amountPaise },
    ],
  };
}

export function decideRejectMoneyRequest(state: MoneyRequestState, payerId: string): MoneyRequestRejected {
  const { requestId, requesterId } = requirePendingFor(state, payerId);
  return { type: 'MoneyRequestRejected', data: { requestId, requesterId, payerId } };
}

export async function acceptMoneyRequest(
  store: EventStore,
  input: AnswerMoneyRequestInput,
  ctx: CommandContext,
): Promise<MoneyRequestResult> {
  return answer(store, 'acceptMoneyRequest', input, ctx, (state) => decideAcceptMoneyRequest(state, input.payerId));
}

export async function rejectMoneyRequest(
  store: EventStore,
  input: AnswerMoneyRequestInput,
  ctx: CommandContext,
): Promise<MoneyRequestResult> {
  return answer(store, 'rejectMoneyRequest', input, ctx, (state) => decideRejectMoneyRequest(state, input.payerId));
}

async function answer(
  store: EventStore,
  command: string,
  input: AnswerMoneyRequestInput,
  ctx: CommandContext,
  decide: (state: MoneyRequestState) => LedgerEvent,
): Promise<MoneyRequestResult> {
  const claim = idempotencyClaim(command, ctx, input);
  const seen = await previousResult<MoneyRequestResult>(store.db, claim);
  if (seen) return seen;
  const events = await readStream(store.db, moneyRequestStream(input.requestId));
  const state = events.reduce(evolveMoneyRequest, { status: 'absent', version: NO_STREAM });
  const result = await store.append({
    streamId: moneyRequestStream(input.requestId),
    expectedVersion: state.version,
    events: [decide(state)],
    metadata: metadataFor(command, ctx),
    idempotency: claim,
    result: { requestId: input.requestId },
  });
  return result as MoneyRequestResult;
}
