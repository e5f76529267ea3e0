/**
 * The card deposit use-case: charge the card through the card port, then tell the ledger,
 * in that order (the ledger must never show money the provider has not confirmed).
 * - succeeded: the deposit is recorded and settled in one append (completeCardDeposit).
 * - requires_action / processing: the deposit is recorded as pending (requestDeposit, method
 *   'card'), so the signed webhook can settle or fail it later.
 * - declined / provider unavailable: nothing is appended.
 * - the provider refused the idempotency key (reused for another payment): refused as the
 *   ledger refuses a reused key, nothing appended.
 * If the process dies between a successful charge and the append, the webhook records and
 * credits the deposit from the payment's metadata: the charge is never lost.
 */
import { createHash } from 'node:crypto';
import { newId } from '../platform/ids.ts';
import {
  isLedgerRejection,
  reject,
  requireDepositTerms,
  type CommandContext,
  type Ledger,
  type Paise,
} from '../ledger/index.ts';
import {
  CARD_FAILURE_MESSAGES,
  type CardChargeOutcome,
  type CardFailureCode,
  type CardNextAction,
  type CardProvider,
} from '../providers/card/index.ts';

export const CARD_DEPOSIT_SUCCESS_MESSAGE = 'Card deposit successful! Your account has been credited.';
export const CARD_DEPOSIT_PENDING_MESSAGE = 'Please complete the card verification to finish your deposit.';

export interface CardDepositDependencies {
  ledger: Ledger;
  provider: CardProvider;
}

export interface StartCardDepositInput {
  /** Always the signed-in user's wallet. */
  walletId: string;
  amountPaise: Paise;
  reference: string;
  paymentMethodId: string;
  customerEmail?: string | undefined;
}

export type CardDepositOutcome =
  /** Money is in the wallet. `checkpoint` is null only when the webhook recorded it first. */
  | { status: 'credited'; depositId: string; paymentId: string; checkpoint: string | null; replayed: boolean }
  /** Recorded as pending; the browser finishes the payment with `clientSecret`, the webhook settles. */
  | {
      status: 'pending';
      depositId: string;
      paymentId: string;
      checkpoint: string;
      clientSecret: string | null;
      nextAction: CardNextAction | null;
      replayed: boolean;
    }
  /** Nothing appended; `message` is the spec's card message for `code`. */
  | { status: 'failed'; code: CardFailureCode; message: string };

/**
 * Charges the card and records the deposit. Ledger rejections (unknown wallet, reused
 * idempotency key, limits) are thrown as `LedgerRejection`, like every other command.
 * The ledger re-checks amount and reference, but only after the card is charged: they are
 * checked first (the ledger's own rule) so a card is never charged for a deposit it would refuse.
 * With `ctx.idempotencyKey` the deposit id (and so the provider's idempotency key) is derived
 * from it: a retried request reaches the same payment and the same ledger result.
 */
export async function startCardDeposit(
  deps: CardDepositDependencies,
  input: StartCardDepositInput,
  ctx: CommandContext,
): Promise<CardDepositOutcome> {
  requireDepositTerms(input);
  const depositId = cardDepositId(ctx);
  const charge = await deps.provider.charge({
    amountPaise: input.amountPaise,
    paymentMethodId: input.paymentMethodId,
    depositId,
    walletId: input.walletId,
    reference: input.reference.trim(),
    customerEmail: input.customerEmail,
    idempotencyKey: `wallet-card-deposit-${depositId}`,
  });
  return recordCharge(deps, input, ctx, depositId, charge);
}

async function recordCharge(
  deps: CardDepositDependencies,
  input: StartCardDepositInput,
  ctx: CommandContext,
  depositId: string,
  charge: CardChargeOutcome,
): Promise<CardDepositOutcome> {
  switch (charge.status) {
    case 'succeeded':
      return credit(deps, input, ctx, depositId, charge.paymentId);
    case 'requires_action':
    case 'processing': {
      const pending = await deps.ledger.requestDeposit(
        {
          depositId,
          walletId: input.walletId,
          amountPaise: input.amountPaise,
          method: 'card',
          reference: input.reference,
          details: { provider: deps.provider.name, paymentId: charge.paymentId },
        },
        ctx,
      );
      const action =
        charge.status === 'requires_action'
          ? { clientSecret: charge.clientSecret, nextAction: charge.nextAction }
          : { clientSecret: null, nextAction: null };
      return {
        status: 'pending',
        depositId,
        paymentId: charge.paymentId,
        checkpoint: pending.checkpoint,
        replayed: pending.replayed,
        ...action,
      };
    }
    case 'declined':
      return { status: 'failed', code: charge.code, message: charge.message };
    case 'provider_unavailable':
      return { status: 'failed', code: 'provider_unavailable', message: CARD_FAILURE_MESSAGES.provider_unavailable };
    case 'idempotency_key_reused':
      // The key named another payment: the same refusal the ledger gives a key reused for another request.
      return reject('idempotency_key_reused', 'This idempotency key was already used for a different card payment');
  }
}

async function credit(
  deps: CardDepositDependencies,
  input: StartCardDepositInput,
  ctx: CommandContext,
  depositId: string,
  paymentId: string,
): Promise<CardDepositOutcome> {
  try {
    const result = await deps.ledger.completeCardDeposit(
      {
        depositId,
        walletId: input.walletId,
        amountPaise: input.amountPaise,
        reference: input.reference,
        provider: deps.provider.name,
        paymentId,
      },
      ctx,
    );
    return { status: 'credited', depositId, paymentId, checkpoint: result.checkpoint, replayed: result.replayed };
  } catch (error) {
    // The webhook for this very payment was faster and already credited it.
    if (isLedgerRejection(error) && error.code === 'deposit_not_pending')
      return { status: 'credited', depositId, paymentId, checkpoint: null, replayed: true };
    throw error;
  }
}

/** Same actor + same Idempotency-Key -> same deposit id; without a key, a fresh one. */
export function cardDepositId(ctx: CommandContext): string {
  if (!ctx.idempotencyKey) return `card-${newId()}`;
  const digest = createHash('sha256').update(`${ctx.actorId}\n${ctx.idempotencyKey}`).digest('hex');
  return `card-${digest.slice(0, 32)}`;
}
