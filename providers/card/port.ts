/**
 * The card-provider port: what a deposit needs from any card processor (Stripe, or the local
 * sandbox), and the closed set of outcomes it can report. Also the one table that turns a
 * card failure into the message the spec's client shows (wallet-spec section 8), so no
 * adapter or route words a card error on its own.
 */
import type { Paise } from '../../ledger/index.ts';

export type CardProviderName = 'stripe' | 'sandbox';

export interface CardChargeRequest {
  amountPaise: Paise;
  /** The payment method the browser created with the provider's script (or a sandbox test id). */
  paymentMethodId: string;
  depositId: string;
  walletId: string;
  /** Travels with the payment so a webhook can record a deposit the server never got to record. */
  reference: string;
  customerEmail?: string | undefined;
  /** Same key, same charge: a retried request never charges the card twice. */
  idempotencyKey: string;
}

/** What the browser needs to finish a payment that asks for a further step (3-D Secure). */
export interface CardNextAction {
  type: string;
  redirectUrl: string | null;
}

/**
 * Why a charge did not go through. The provider's own codes are narrowed to these; anything
 * unrecognised becomes `processing_error`.
 */
export const CARD_FAILURE_CODES = [
  'card_declined',
  'insufficient_funds',
  'expired_card',
  'incorrect_cvc',
  'incorrect_number',
  'authentication_required',
  'invalid_payment_method',
  'processing_error',
  'provider_unavailable',
] as const;
export type CardFailureCode = (typeof CARD_FAILURE_CODES)[number];
export type CardDeclineCode = Exclude<CardFailureCode, 'provider_unavailable'>;

export type CardChargeOutcome =
  | { status: 'succeeded'; paymentId: string }
  | { status: 'requires_action'; paymentId: string; clientSecret: string; nextAction: CardNextAction }
  /** Accepted but not final yet (rare for cards): only a webhook can tell how it ends. */
  | { status: 'processing'; paymentId: string }
  | { status: 'declined'; code: CardDeclineCode; message: string; paymentId: string | null }
  | { status: 'provider_unavailable'; message: string }
  /** The provider refused the request, not the card: its idempotency key already named a payment with other parameters. Nothing was charged. */
  | { status: 'idempotency_key_reused' };

/**
 * `canceled`: the payment can never succeed now. `not_cancelable`: it already succeeded or is
 * still processing, so its own webhook will say how it ended.
 */
export type CardCancelOutcome = 'canceled' | 'not_cancelable';

export interface CardProvider {
  readonly name: CardProviderName;
  charge(request: CardChargeRequest): Promise<CardChargeOutcome>;
  /** Closes a payment before its deposit is recorded as failed. Throws when the provider is unreachable. */
  cancel(paymentId: string): Promise<CardCancelOutcome>;
}

/**
 * The spec's card messages (section 8). 'Card error: ...' carries the reason the card was
 * refused; a failure that is nobody's fault reads 'Card payment failed. Please try again.';
 * an unreachable provider reads as the network error.
 */
export const CARD_FAILURE_MESSAGES: Readonly<Record<CardFailureCode, string>> = {
  card_declined: 'Card error: Your card was declined.',
  insufficient_funds: 'Insufficient funds on your card.',
  expired_card: 'Card error: Your card has expired.',
  incorrect_cvc: "Card error: Your card's security code is incorrect.",
  incorrect_number: 'Card error: Your card number is incorrect.',
  authentication_required: 'Card error: Your card needs authentication that could not be completed.',
  invalid_payment_method: 'Card error: These card details cannot be used. Please check them and try again.',
  processing_error: 'Card payment failed. Please try again.',
  provider_unavailable: 'Network error. Please check your connection and try again.',
};

export function declined(code: CardDeclineCode, paymentId: string | null = null): CardChargeOutcome {
  return { status: 'declined', code, message: CARD_FAILURE_MESSAGES[code], paymentId };
}

export function providerUnavailable(): CardChargeOutcome {
  return { status: 'provider_unavailable', message: CARD_FAILURE_MESSAGES.provider_unavailable };
}

/**
 * Stripe's `code` / `decline_code` vocabulary narrowed to ours. A decline code is more
 * specific than the error code (`card_declined` + `insufficient_funds`), so it wins.
 */
const PROVIDER_CODES: Readonly<Record<string, CardDeclineCode>> = {
  card_declined: 'card_declined',
  generic_decline: 'card_declined',
  do_not_honor: 'card_declined',
  lost_card: 'card_declined',
  stolen_card: 'card_declined',
  fraudulent: 'card_declined',
  insufficient_funds: 'insufficient_funds',
  expired_card: 'expired_card',
  incorrect_cvc: 'incorrect_cvc',
  invalid_cvc: 'incorrect_cvc',
  incorrect_number: 'incorrect_number',
  invalid_number: 'incorrect_number',
  authentication_required: 'authentication_required',
  payment_intent_authentication_failure: 'authentication_required',
  processing_error: 'processing_error',
};

export function declineCodeFrom(code: string | undefined, declineCode: string | undefined): CardDeclineCode {
  return (
    (declineCode !== undefined ? PROVIDER_CODES[declineCode] : undefined) ??
    (code !== undefined ? PROVIDER_CODES[code] : undefined) ??
    'processing_error'
  );
}
