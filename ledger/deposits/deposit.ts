/**
 * Deposits: money entering a wallet from outside. Bank transfer and UPI deposits are
 * requested (pending, no money moves), then settled or failed by an admin. Card deposits
 * are credited only once the card provider has confirmed the payment.
 */
import { NO_STREAM, type AppendResult } from '../event-store/append.ts';
import { readStream } from '../event-store/read.ts';
import { fundingAccount, type DepositMethod } from '../accounts.ts';
import {
  assertNever,
  type DepositDetails,
  type DepositFailed,
  type DepositRequested,
  type DepositSettled,
  type LedgerEvent,
  type RecordedEvent,
} from '../events.ts';
import {
  idempotencyClaim,
  metadataFor,
  previousResult,
  type CommandContext,
  type EventStore,
  type LedgerDb,
} from '../handle-command.ts';
import { MAX_DEPOSIT_PAISE, MIN_DEPOSIT_PAISE } from '../limits.ts';
import type { Paise } from '../money.ts';
import { reject } from '../rejections.ts';
import { requireAmountInRange, requireReference } from '../validation.ts';
import { requireWallet } from '../wallet-accounts/require-wallet.ts';

export type DepositState =
  | { status: 'absent'; version: number }
  | { status: 'pending' | 'settled' | 'failed' | 'reversed'; version: number; request: DepositRequested['data'] };

export type DepositResult = AppendResult & { depositId: string };

export function depositStream(depositId: string): string {
  return `deposit-${depositId}`;
}

export function evolveDeposit(state: DepositState, event: RecordedEvent): DepositState {
  switch (event.type) {
    case 'DepositRequested':
      return { status: 'pending', version: event.streamVersion, request: event.data };
    case 'DepositSettled':
      return state.status === 'absent' ? state : { ...state, status: 'settled', version: event.streamVersion };
    case 'DepositFailed':
      return state.status === 'absent' ? state : { ...state, status: 'failed', version: event.streamVersion };
    case 'DepositReversed':
      return state.status === 'absent' ? state : { ...state, status: 'reversed', version: event.streamVersion };
    case 'WalletOpened':
    case 'TransferCompleted':
    case 'TransferReversed':
    case 'MoneyRequestPaymentReversed':
    case 'MoneyRequested':
    case 'MoneyRequestAccepted':
    case 'MoneyRequestRejected':
    case 'DisputeRaised':
    case 'DisputeUpheld':
    case 'DisputeReopened':
    case 'DisputeRejected':
      return state;
    default:
      return assertNever(event);
  }
}

export async function loadDeposit(db: LedgerDb, depositId: string): Promise<DepositState> {
  const events = await readStream(db, depositStream(depositId));
  return events.reduce(evolveDeposit, { status: 'absent', version: NO_STREAM });
}

// ---- request (pending) -------------------------------------------------------------

export interface RequestDepositInput {
  depositId: string;
  walletId: string;
  amountPaise: Paise;
  method: DepositMethod;
  reference: string;
  details: DepositDetails;
}

/**
 * What every deposit must meet: an amount within the deposit limits and a reference. Pure,
 * and exported so a caller can ask before it spends something the ledger cannot take back:
 * payments/ checks it before a card is charged.
 */
export function requireDepositTerms(terms: Pick<RequestDepositInput, 'amountPaise' | 'reference'>): void {
  requireAmountInRange(terms.amountPaise, MIN_DEPOSIT_PAISE, MAX_DEPOSIT_PAISE);
  requireReference(terms.reference);
}

export function decideRequestDeposit(input: RequestDepositInput): DepositRequested {
  requireDepositTerms(input);
  return { type: 'DepositRequested', data: { ...input, reference: input.reference.trim() } };
}

export async function requestDeposit(
  store: EventStore,
  input: RequestDepositInput,
  ctx: CommandContext,
): Promise<DepositResult> {
  const event = decideRequestDeposit(input);
  await requireWallet(store.db, input.walletId);
  const { depositId, ...fingerprint } = input;
  const result = await store.append({
    streamId: depositStream(depositId),
    expectedVersion: NO_STREAM,
    events: [event],
    metadata: metadataFor('requestDeposit', ctx),
    idempotency: idempotencyClaim('requestDeposit', ctx, fingerprint),
    result: { depositId },
  });
  return result as DepositResult;
}

// ---- settle / fail (admin, or the card provider) ---------------------------------

/**
 * Who decides a pending deposit: an admin by hand (bank transfer and UPI only, and never for
 * their own wallet), or the card provider's confirmation.
 */
export type DepositDecider = { by: 'admin'; adminId: string } | { by: 'provider' };

/**
 * An admin reviews money arriving from outside, which only a bank statement or a UPI
 * report can show; a card deposit is the provider's to confirm (one still waiting for
 * 3-D Secure may yet be paid or abandoned), and an admin deciding on their own deposit
 * would be creating money for themselves.
 */
function requireDecidableBy(decider: DepositDecider, request: DepositRequested['data']): void {
  if (decider.by !== 'admin') return;
  if (request.method === 'card')
    reject('not_reviewable_by_hand', 'Card deposits are settled by the card provider, not by hand');
  if (request.walletId === decider.adminId)
    reject('actor_is_party', 'You cannot review a deposit into your own wallet');
}

export function decideSettleDeposit(state: DepositState, decider: DepositDecider): DepositSettled {
  if (state.status === 'absent') reject('deposit_not_found', 'Deposit not found');
  if (state.status !== 'pending') reject('deposit_not_pending', `Deposit is already ${state.status}`);
  requireDecidableBy(decider, state.request);
  const confirmedBy = decider.by;
  const { depositId, walletId, amountPaise, method } = state.request;
  return {
    type: 'DepositSettled',
    data: { depositId, walletId, amountPaise, method, confirmedBy },
    postings: [
      { accountId: fundingAccount(method), amountPaise: -amountPaise },
      { accountId: walletId, amountPaise },
    ],
  };
}

export function decideFailDeposit(state: DepositState, reason: string, decider: DepositDecider): DepositFailed {
  if (state.status === 'absent') reject('deposit_not_found', 'Deposit not found');
  if (state.status !== 'pending') reject('deposit_not_pending', `Deposit is already ${state.status}`);
  requireDecidableBy(decider, state.request);
  requireReference(reason);
  return {
    type: 'DepositFailed',
    data: { depositId: state.request.depositId, walletId: state.request.walletId, reason: reason.trim() },
  };
}

/** The admin who decides is the command's actor (`ctx.actorId`). */
export interface SettleDepositInput {
  depositId: string;
}

export async function settleDeposit(
  store: EventStore,
  input: SettleDepositInput,
  ctx: CommandContext,
): Promise<DepositResult> {
  const decider: DepositDecider = { by: 'admin', adminId: ctx.actorId };
  return decideOnDeposit(store, 'settleDeposit', input.depositId, ctx, input, (state) => [
    decideSettleDeposit(state, decider),
  ]);
}

export interface FailDepositInput {
  depositId: string;
  reason: string;
  /** `provider`: the card provider reported the payment failed (webhook); otherwise the actor is an admin. */
  decidedBy?: 'admin' | 'provider';
}

export async function failDeposit(
  store: EventStore,
  input: FailDepositInput,
  ctx: CommandContext,
): Promise<DepositResult> {
  const decider: DepositDecider =
    input.decidedBy === 'provider' ? { by: 'provider' } : { by: 'admin', adminId: ctx.actorId };
  return decideOnDeposit(store, 'failDeposit', input.depositId, ctx, input, (state) => [
    decideFailDeposit(state, input.reason, decider),
  ]);
}

// ---- card (provider-confirmed) -----------------------------------------------------

export interface CompleteCardDepositInput {
  depositId: string;
  walletId: string;
  amountPaise: Paise;
  reference: string;
  provider: string;
  paymentId: string;
}

/**
 * The provider confirmed the payment. A deposit not yet recorded (the payment succeeded at
 * once) is requested and settled in one append; one left pending (the payment needed a
 * further step) is settled. A second confirmation is refused as not pending.
 */
export function decideCompleteCardDeposit(state: DepositState, input: CompleteCardDepositInput): LedgerEvent[] {
  if (state.status !== 'absent') {
    if (state.status === 'pending') requireSamePayment(state, input);
    return [decideSettleDeposit(state, { by: 'provider' })];
  }
  const requested = decideRequestDeposit({
    depositId: input.depositId,
    walletId: input.walletId,
    amountPaise: input.amountPaise,
    method: 'card',
    reference: input.reference,
    details: { provider: input.provider, paymentId: input.paymentId },
  });
  const pending: DepositState = { status: 'pending', version: 0, request: requested.data };
  return [requested, decideSettleDeposit(pending, { by: 'provider' })];
}

/**
 * A confirmation settles only the payment the deposit recorded: the same wallet, amount and
 * provider payment id. A confirmation naming this deposit with another amount (a webhook for
 * a different PaymentIntent that carries the same metadata) must not credit what was not paid.
 */
function requireSamePayment(state: Exclude<DepositState, { status: 'absent' }>, input: CompleteCardDepositInput): void {
  const recorded = state.request;
  const paymentId = 'paymentId' in recorded.details ? recorded.details.paymentId : undefined;
  const same =
    recorded.method === 'card' &&
    recorded.walletId === input.walletId &&
    recorded.amountPaise === input.amountPaise &&
    paymentId === input.paymentId;
  if (!same) reject('payment_mismatch', 'The confirmed payment does not match the recorded deposit');
}

export async function completeCardDeposit(
  store: EventStore,
  input: CompleteCardDepositInput,
  ctx: CommandContext,
): Promise<DepositResult> {
  await requireWallet(store.db, input.walletId);
  return decideOnDeposit(store, 'completeCardDeposit', input.depositId, ctx, input, (state) =>
    decideCompleteCardDeposit(state, input),
  );
}

async function decideOnDeposit(
  store: EventStore,
  command: string,
  depositId: string,
  ctx: CommandContext,
  fingerprint: unknown,
  decide: (state: DepositState) => LedgerEvent[],
): Promise<DepositResult> {
  const claim = idempotencyClaim(command, ctx, fingerprint);
  const seen = await previousResult<DepositResult>(store.db, claim);
  if (seen) return seen;
  const state = await loadDeposit(store.db, depositId);
  const result = await store.append({
    streamId: depositStream(depositId),
    expectedVersion: state.version,
    events: decide(state),
    metadata: metadataFor(command, ctx),
    idempotency: claim,
    result: { depositId },
  });
  return result as DepositResult;
}
