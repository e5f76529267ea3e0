/**
 * The local sandbox card provider: used when no STRIPE_SECRET_KEY is configured, so the card
 * flow works offline. It moves no real money and keeps no state: each documented test
 * payment method id always gives the same outcome, and the payment id is derived from the
 * idempotency key so a retried request is recognised as the same payment.
 * The test cards are listed in providers/card/README.md.
 */
import { createHash } from 'node:crypto';
import {
  declined,
  type CardChargeOutcome,
  type CardChargeRequest,
  type CardDeclineCode,
  type CardProvider,
} from './port.ts';

type SandboxBehaviour = 'succeeded' | CardDeclineCode;

/** Test card number -> behaviour; the sandbox web form sends `pm_sandbox_<last 4 digits>`. */
export const SANDBOX_TEST_CARDS: ReadonlyArray<{ cardNumber: string; behaviour: SandboxBehaviour }> = [
  { cardNumber: '4242424242424242', behaviour: 'succeeded' },
  { cardNumber: '4000000000000002', behaviour: 'card_declined' },
  { cardNumber: '4000000000009995', behaviour: 'insufficient_funds' },
  { cardNumber: '4000000000003220', behaviour: 'authentication_required' },
  { cardNumber: '4000000000000069', behaviour: 'expired_card' },
  { cardNumber: '4000000000000127', behaviour: 'incorrect_cvc' },
  { cardNumber: '4000000000000119', behaviour: 'processing_error' },
];

/** Stripe's own test payment method ids, accepted so the same ids work against both providers. */
const STRIPE_TEST_PAYMENT_METHODS: Readonly<Record<string, SandboxBehaviour>> = {
  pm_card_visa: 'succeeded',
  pm_card_mastercard: 'succeeded',
  pm_card_chargeDeclined: 'card_declined',
  pm_card_chargeDeclinedInsufficientFunds: 'insufficient_funds',
  pm_card_chargeDeclinedExpiredCard: 'expired_card',
  pm_card_chargeDeclinedIncorrectCvc: 'incorrect_cvc',
  pm_card_chargeDeclinedProcessingError: 'processing_error',
  pm_card_authenticationRequired: 'authentication_required',
};

export function sandboxPaymentMethodId(cardNumber: string): string {
  return `pm_sandbox_${cardNumber.slice(-4)}`;
}

const SANDBOX_PAYMENT_METHODS: ReadonlyMap<string, SandboxBehaviour> = new Map([
  ...SANDBOX_TEST_CARDS.map((card): [string, SandboxBehaviour] => [
    sandboxPaymentMethodId(card.cardNumber),
    card.behaviour,
  ]),
  ...Object.entries(STRIPE_TEST_PAYMENT_METHODS),
]);

export function createSandboxCardProvider(): CardProvider {
  // Nothing the sandbox charges is ever left open, so there is never anything to cancel.
  return { name: 'sandbox', charge: async (request) => sandboxCharge(request), cancel: async () => 'canceled' };
}

function sandboxCharge(request: CardChargeRequest): CardChargeOutcome {
  const paymentId = `pi_sandbox_${createHash('sha256').update(request.idempotencyKey).digest('hex').slice(0, 24)}`;
  const behaviour = SANDBOX_PAYMENT_METHODS.get(request.paymentMethodId);
  // Anything not in the list is refused: the sandbox must never look like it takes real cards.
  if (behaviour === undefined) return declined('invalid_payment_method');
  if (behaviour === 'succeeded') return { status: 'succeeded', paymentId };
  // The sandbox has no 3-D Secure page to send the browser to, so an authentication card is a decline.
  return declined(behaviour, paymentId);
}
