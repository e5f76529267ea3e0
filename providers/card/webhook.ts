/**
 * Card webhooks: the signature check (Stripe's constructEvent over the raw body) and the
 * exactly-once settlement of what they report. A payment that needed a further step
 * (3-D Secure) was recorded as a pending deposit; its `payment_intent.succeeded` credits it,
 * its `payment_intent.payment_failed` cancels the payment and records the failure. Stripe delivers at least once, so
 * a second delivery finds the deposit no longer pending and counts as already done.
 */
import Stripe from 'stripe';
import { z } from 'zod';
import { assertNever, isLedgerRejection, type CommandContext, type Ledger, type Paise } from '../../ledger/index.ts';
import { CARD_FAILURE_MESSAGES, declineCodeFrom, type CardDeclineCode, type CardProvider } from './port.ts';

export type CardWebhookEvent =
  | { type: 'payment_succeeded'; eventId: string; paymentId: string; depositId: string; walletId: string; amountPaise: Paise; reference: string }
  | { type: 'payment_failed'; eventId: string; paymentId: string; depositId: string; walletId: string; amountPaise: Paise; reason: CardDeclineCode }
  | { type: 'ignored'; eventId: string | null; why: string }
  /** The signature did not verify (or the body is not an event): answer 400 and do nothing. */
  | { type: 'rejected'; why: string };

/** Who the ledger records as having settled a card deposit from a webhook. */
export const CARD_WEBHOOK_ACTOR = 'provider:card';
/** Used when a payment carries no reference (it was not created by this server's startCardDeposit). */
const FALLBACK_REFERENCE = 'Card deposit';
/** Stripe's default: a signed body older than this is a replay attempt. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

const paymentIntentSchema = z.object({
  id: z.string().min(1),
  amount: z.number().int().positive().refine(Number.isSafeInteger),
  currency: z.string(),
  metadata: z.object({ depositId: z.string().min(1), walletId: z.string().min(1), reference: z.string().optional() }),
  last_payment_error: z.object({ code: z.string().optional(), decline_code: z.string().optional() }).nullish(),
});

/**
 * Verifies and reads one webhook delivery. `rawBody` must be the bytes Stripe sent, before any
 * JSON parsing (the signature covers them exactly).
 */
export function parseCardWebhook(rawBody: string | Buffer, signatureHeader: string | undefined, secret: string): CardWebhookEvent {
  if (!signatureHeader) return { type: 'rejected', why: 'missing Stripe-Signature header' };
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(rawBody, signatureHeader, secret, SIGNATURE_TOLERANCE_SECONDS);
  } catch (error) {
    return { type: 'rejected', why: error instanceof Error ? error.message : 'signature check failed' };
  }
  if (event.type !== 'payment_intent.succeeded' && event.type !== 'payment_intent.payment_failed') {
    return { type: 'ignored', eventId: event.id, why: `event type ${event.type}` };
  }
  const parsed = paymentIntentSchema.safeParse(event.data.object);
  if (!parsed.success) return { type: 'ignored', eventId: event.id, why: 'not a wallet deposit payment' };
  const intent = parsed.data;
  if (intent.currency !== 'inr') return { type: 'ignored', eventId: event.id, why: `currency ${intent.currency}` };
  const common = { eventId: event.id, paymentId: intent.id, depositId: intent.metadata.depositId, walletId: intent.metadata.walletId, amountPaise: BigInt(intent.amount) };
  if (event.type === 'payment_intent.succeeded') {
    return { type: 'payment_succeeded', ...common, reference: intent.metadata.reference?.trim() || FALLBACK_REFERENCE };
  }
  const last = intent.last_payment_error;
  return { type: 'payment_failed', ...common, reason: declineCodeFrom(last?.code, last?.decline_code) };
}

export type CardWebhookResult =
  | { result: 'credited'; depositId: string; checkpoint: string }
  | { result: 'failure_recorded'; depositId: string; checkpoint: string }
  /** A repeated delivery, or the synchronous path got there first: nothing appended. */
  | { result: 'already_processed'; depositId: string }
  /** The payment failed an attempt but already succeeded or is processing: its own webhook settles it. */
  | { result: 'left_pending'; depositId: string }
  /** A failure for a deposit never recorded (declined at once), or an ignored event. */
  | { result: 'nothing_to_do'; depositId: string | null }
  /** The event names a recorded deposit but another payment, wallet or amount: nothing is credited. */
  | { result: 'payment_mismatch'; depositId: string };

export interface CardWebhookDependencies {
  ledger: Ledger;
  /** The provider that sent the webhook: a failed payment is canceled there before the deposit fails. */
  provider: CardProvider;
}

/**
 * Applies a verified event to the ledger exactly once. Answer 2xx for every result (Stripe
 * stops retrying); let thrown errors (database or provider down) answer 5xx so Stripe retries.
 */
export async function applyCardWebhookEvent(deps: CardWebhookDependencies, event: CardWebhookEvent): Promise<CardWebhookResult> {
  const ctx: CommandContext = { actorId: CARD_WEBHOOK_ACTOR, requestId: event.type === 'rejected' ? undefined : (event.eventId ?? undefined) };
  switch (event.type) {
    case 'payment_succeeded':
      return settleOnce(event.depositId, async () => {
        // completeCardDeposit settles a pending deposit, or records and settles one the server
        // never got to record (it stopped after the charge): the payment carries all it needs.
        const { checkpoint } = await deps.ledger.completeCardDeposit(
          { depositId: event.depositId, walletId: event.walletId, amountPaise: event.amountPaise, reference: event.reference, provider: 'stripe', paymentId: event.paymentId },
          ctx,
        );
        return { result: 'credited', depositId: event.depositId, checkpoint };
      });
    case 'payment_failed':
      return settleOnce(event.depositId, async () => {
        // A failed attempt leaves a PaymentIntent open to a later confirmation. Close it first,
        // so a deposit recorded as failed can never be paid afterwards without being credited.
        if ((await deps.provider.cancel(event.paymentId)) === 'not_cancelable') return { result: 'left_pending', depositId: event.depositId };
        const { checkpoint } = await deps.ledger.failDeposit({ depositId: event.depositId, reason: CARD_FAILURE_MESSAGES[event.reason], decidedBy: 'provider' }, ctx);
        return { result: 'failure_recorded', depositId: event.depositId, checkpoint };
      });
    case 'ignored':
    case 'rejected':
      return { result: 'nothing_to_do', depositId: null };
    default:
      return assertNever(event);
  }
}

async function settleOnce(depositId: string, apply: () => Promise<CardWebhookResult>): Promise<CardWebhookResult> {
  try {
    return await apply();
  } catch (error) {
    if (isLedgerRejection(error) && error.code === 'deposit_not_pending') return { result: 'already_processed', depositId };
    if (isLedgerRejection(error) && error.code === 'deposit_not_found') return { result: 'nothing_to_do', depositId };
    if (isLedgerRejection(error) && error.code === 'payment_mismatch') return { result: 'payment_mismatch', depositId };
    throw error;
  }
}
