/**
 * Card webhooks as the provider sends them: the signature check (Stripe's constructEvent over
 * the raw body) and the event read into the port's terms (a payment succeeded or failed, for
 * which deposit, wallet and amount). What the wallet then does is payments/card-webhook.ts's.
 */
import Stripe from 'stripe';
import { z } from 'zod';
import type { Paise } from '../../ledger/index.ts';
import { declineCodeFrom, type CardDeclineCode } from './port.ts';

export type CardWebhookEvent =
  | {
      type: 'payment_succeeded';
      eventId: string;
      paymentId: string;
      depositId: string;
      walletId: string;
      amountPaise: Paise;
      reference: string;
    }
  | {
      type: 'payment_failed';
      eventId: string;
      paymentId: string;
      depositId: string;
      walletId: string;
      amountPaise: Paise;
      reason: CardDeclineCode;
    }
  | { type: 'ignored'; eventId: string | null; why: string }
  /** The signature did not verify (or the body is not an event): answer 400 and do nothing. */
  | { type: 'rejected'; why: string };

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
export function parseCardWebhook(
  rawBody: string | Buffer,
  signatureHeader: string | undefined,
  secret: string,
): CardWebhookEvent {
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
  const common = {
    eventId: event.id,
    paymentId: intent.id,
    depositId: intent.metadata.depositId,
    walletId: intent.metadata.walletId,
    amountPaise: BigInt(intent.amount),
  };
  if (event.type === 'payment_intent.succeeded') {
    return { type: 'payment_succeeded', ...common, reference: intent.metadata.reference?.trim() || FALLBACK_REFERENCE };
  }
  const last = intent.last_payment_error;
  return { type: 'payment_failed', ...common, reason: declineCodeFrom(last?.code, last?.decline_code) };
}
