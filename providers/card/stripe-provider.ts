/**
 * The Stripe adapter of the card port: one PaymentIntent per deposit, created and confirmed in
 * a single call, in INR paise, with the deposit's idempotency key so a retried request never
 * charges twice. Only `succeeded` is final money; `requires_action` hands the browser what it
 * needs to finish (3-D Secure), and the signed webhook settles what happens next.
 */
import Stripe from 'stripe';
import {
  declineCodeFrom,
  declined,
  providerUnavailable,
  type CardChargeOutcome,
  type CardChargeRequest,
  type CardNextAction,
  type CardProvider,
} from './port.ts';

export interface StripeProviderOptions {
  secretKey: string;
  /** Where the SDK sends requests: Stripe's API by default, the local fake server in tests. */
  host?: string | undefined;
  port?: number | undefined;
  protocol?: 'http' | 'https' | undefined;
  /** The SDK retries with the same idempotency key, so a retry never charges twice. */
  maxNetworkRetries?: number | undefined;
  timeoutMs?: number | undefined;
}

const DEFAULT_MAX_NETWORK_RETRIES = 2;
const DEFAULT_TIMEOUT_MS = 20_000;

export function createStripeClient(options: StripeProviderOptions): Stripe {
  return new Stripe(options.secretKey, {
    maxNetworkRetries: options.maxNetworkRetries ?? DEFAULT_MAX_NETWORK_RETRIES,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    telemetry: false,
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.protocol !== undefined ? { protocol: options.protocol } : {}),
  });
}

export function createStripeCardProvider(options: StripeProviderOptions): CardProvider {
  const stripe = createStripeClient(options);
  return {
    name: 'stripe',
    charge: async (request) => {
      try {
        const intent = await stripe.paymentIntents.create(paymentIntentParams(request), {
          idempotencyKey: request.idempotencyKey,
        });
        return outcomeOf(intent);
      } catch (error) {
        return outcomeOfError(error);
      }
    },
    cancel: async (paymentId) => {
      try {
        await stripe.paymentIntents.cancel(paymentId, { cancellation_reason: 'abandoned' });
        return 'canceled';
      } catch (error) {
        if (!(
          error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'payment_intent_unexpected_state'
        ))
          throw error;
        // Stripe refuses to cancel a succeeded, processing or already canceled intent. Only
        // the last is closed for good; for the others their own webhook decides.
        const intent = await stripe.paymentIntents.retrieve(paymentId);
        return intent.status === 'canceled' ? 'canceled' : 'not_cancelable';
      }
    },
  };
}

/**
 * Paise are the smallest INR unit, which is what Stripe's `amount` wants. The ledger keeps
 * bigint; the SDK takes a number, so convert here and refuse anything not exactly representable.
 */
export function paiseToStripeAmount(amountPaise: bigint): number {
  const amount = Number(amountPaise);
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new RangeError(`not a chargeable amount of paise: ${amountPaise}`);
  return amount;
}

function paymentIntentParams(request: CardChargeRequest): Stripe.PaymentIntentCreateParams {
  return {
    amount: paiseToStripeAmount(request.amountPaise),
    currency: 'inr',
    payment_method: request.paymentMethodId,
    // Cards only: the deposit form collects a card, and automatic methods could pick a
    // redirect-based method this flow cannot finish.
    automatic_payment_methods: { enabled: false },
    confirm: true,
    description: 'Wallet deposit',
    metadata: { depositId: request.depositId, walletId: request.walletId, reference: request.reference },
    ...(request.customerEmail !== undefined ? { receipt_email: request.customerEmail } : {}),
  };
}

export function outcomeOf(intent: Stripe.PaymentIntent): CardChargeOutcome {
  switch (intent.status) {
    case 'succeeded':
      return { status: 'succeeded', paymentId: intent.id };
    case 'requires_action':
      return {
        status: 'requires_action',
        paymentId: intent.id,
        clientSecret: intent.client_secret ?? '',
        nextAction: nextActionOf(intent),
      };
    case 'processing':
      return { status: 'processing', paymentId: intent.id };
    case 'requires_payment_method': {
      // Confirmation failed without an error response: the last error says why.
      const last = intent.last_payment_error;
      return declined(declineCodeFrom(last?.code, last?.decline_code), intent.id);
    }
    case 'requires_confirmation':
    case 'requires_capture':
    case 'canceled':
      // None of these can follow `confirm: true` with automatic capture; no money moved.
      return declined('processing_error', intent.id);
    default:
      return declined('processing_error', intent.id);
  }
}

function nextActionOf(intent: Stripe.PaymentIntent): CardNextAction {
  const action = intent.next_action;
  return { type: action?.type ?? 'use_stripe_sdk', redirectUrl: action?.redirect_to_url?.url ?? null };
}

/**
 * SDK errors to outcomes. Card errors are declines; unreachable or failing Stripe is
 * `provider_unavailable` (the webhook still credits if the charge went through after all);
 * a reused idempotency key is its own outcome (the caller decides what it means); our own
 * misconfiguration is thrown.
 */
export function outcomeOfError(error: unknown): CardChargeOutcome {
  if (!(error instanceof Stripe.errors.StripeError)) throw error;
  const paymentId = error.payment_intent?.id ?? null;
  if (error instanceof Stripe.errors.StripeCardError)
    return declined(declineCodeFrom(error.code, error.decline_code), paymentId);
  if (error instanceof Stripe.errors.StripeIdempotencyError) return { status: 'idempotency_key_reused' };
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError
  ) {
    return providerUnavailable();
  }
  if (error instanceof Stripe.errors.StripeInvalidRequestError) {
    // A payment method that does not exist or cannot be used is the customer's card details.
    if (error.param === 'payment_method' || error.code === 'resource_missing')
      return declined('invalid_payment_method', paymentId);
    return declined('processing_error', paymentId);
  }
  throw error;
}
