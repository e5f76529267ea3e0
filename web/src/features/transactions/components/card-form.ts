/**
 * The contract between the deposit dialog and a card form (sandbox or Stripe Elements):
 * the form collects the card, creates a payment method and hands its id over.
 */
export interface CardFormProps {
  /** 'Pay ₹{amount}' */
  payLabel: string;
  /** The deposit's own fields (amount, reference, PIN) are valid. */
  depositValid: boolean;
  /** Why Pay is disabled by the deposit's own fields (the schema's first reason), if it is. */
  blockedReason: string | undefined;
  busy: boolean;
  billing: { name: string; email: string };
  /** Sends the deposit; a card that needs 3-D Secure answers with the payment's client secret. */
  onPaymentMethod: (paymentMethodId: string) => Promise<CardOutcome>;
  /** After the customer completed the card verification (Stripe only). */
  onVerified: () => void;
  onError: (message: string) => void;
}

export type CardOutcome = { status: 'done' } | { status: 'requires_action'; clientSecret: string };
