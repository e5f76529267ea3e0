/**
 * Card webhooks, applied: the exactly-once settlement of what a verified provider event
 * reports (providers/card/webhook.ts checks the signature and reads the event). A payment that
 * needed a further step (3-D Secure) was recorded as a pending deposit; its success credits
 * it, its failure cancels the payment at the provider and records the failure. Providers
 * deliver at least once, so a second delivery finds the deposit no longer pending and counts
 * as already done.
 */
import { assertNever, isLedgerRejection, type CommandContext, type Ledger } from '../ledger/index.ts';
import { CARD_FAILURE_MESSAGES, type CardProvider, type CardWebhookEvent } from '../providers/card/index.ts';

/** Who the ledger records as having settled a card deposit from a webhook. */
export const CARD_WEBHOOK_ACTOR = 'provider:card';

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
export async function applyCardWebhookEvent(
  deps: CardWebhookDependencies,
  event: CardWebhookEvent,
): Promise<CardWebhookResult> {
  const ctx: CommandContext = {
    actorId: CARD_WEBHOOK_ACTOR,
    requestId: event.type === 'rejected' ? undefined : (event.eventId ?? undefined),
  };
  switch (event.type) {
    case 'payment_succeeded':
      return settleOnce(event.depositId, async () => {
        // completeCardDeposit settles a pending deposit, or records and settles one the server
        // never got to record (it stopped after the charge): the payment carries all it needs.
        const { checkpoint } = await deps.ledger.completeCardDeposit(
          {
            depositId: event.depositId,
            walletId: event.walletId,
            amountPaise: event.amountPaise,
            reference: event.reference,
            provider: 'stripe',
            paymentId: event.paymentId,
          },
          ctx,
        );
        return { result: 'credited', depositId: event.depositId, checkpoint };
      });
    case 'payment_failed':
      return settleOnce(event.depositId, async () => {
        // A failed attempt leaves a PaymentIntent open to a later confirmation. Close it first,
        // so a deposit recorded as failed can never be paid afterwards without being credited.
        if ((await deps.provider.cancel(event.paymentId)) === 'not_cancelable')
          return { result: 'left_pending', depositId: event.depositId };
        const { checkpoint } = await deps.ledger.failDeposit(
          { depositId: event.depositId, reason: CARD_FAILURE_MESSAGES[event.reason], decidedBy: 'provider' },
          ctx,
        );
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
    if (isLedgerRejection(error) && error.code === 'deposit_not_pending')
      return { result: 'already_processed', depositId };
    if (isLedgerRejection(error) && error.code === 'deposit_not_found') return { result: 'nothing_to_do', depositId };
    if (isLedgerRejection(error) && error.code === 'payment_mismatch') return { result: 'payment_mismatch', depositId };
    throw error;
  }
}
