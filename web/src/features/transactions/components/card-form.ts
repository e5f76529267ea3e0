/**
 * The contract between the deposit dialog and a card form (sandbox or Stripe Elements):
 * the form collects the card, creates a payment method and hands its id over.
 */
export interface CardFormProps {
  /** 'Pay ₹{amount}' */
  payLabel: string;
  /** The deposit's own fields (amount, reference, PIN) are valid. */
  depositValid: boolean;
  busy: boolean;
  billing: { name: string; email: string };
  onPaymentMethod: (paymentMethodId: string) => Promise<void>;
  onError: (message: string) => void;
}
