/**
 * The Stripe Elements card form (card provider 'stripe'), loaded lazily so Stripe.js is
 * fetched only when a card deposit is chosen. Stripe creates the payment method with the
 * billing e-mail and name; the server charges it.
 */
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { CardFormProps } from './card-form.ts';
import { PayCardButton } from './PayCardButton.tsx';
import styles from './card-form.module.css';

const stripes = new Map<string, Promise<Stripe | null>>();

function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = stripes.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey).catch(() => null);
    stripes.set(publishableKey, stripe);
  }
  return stripe;
}

function StripeCardInner({
  payLabel,
  depositValid,
  blockedReason,
  busy,
  billing,
  onPaymentMethod,
  onVerified,
  onError,
}: CardFormProps): ReactElement {
  const { t } = useTranslation();
  const stripe = useStripe();
  const elements = useElements();
  const [complete, setComplete] = useState(false);
  const [working, setWorking] = useState(false);

  async function pay(): Promise<void> {
    const card = elements?.getElement(CardElement);
    if (!stripe || !card) {
      onError(t('deposit.stripeNotReady'));
      return;
    }
    setWorking(true);
    try {
      const result = await stripe.createPaymentMethod({
        type: 'card',
        card,
        billing_details: { name: billing.name, email: billing.email },
      });
      if (result.error) {
        onError(
          result.error.type === 'card_error'
            ? t('deposit.cardError', { reason: result.error.message ?? t('deposit.declined') })
            : result.error.type === 'api_connection_error'
              ? t('deposit.networkError')
              : t('deposit.cardFailed'),
        );
        return;
      }
      const outcome = await onPaymentMethod(result.paymentMethod.id);
      if (outcome.status === 'requires_action') {
        // 3-D Secure: Stripe shows the bank's page; the server learns the result from Stripe's webhook.
        const confirmed = await stripe.handleNextAction({ clientSecret: outcome.clientSecret });
        if (confirmed.error)
          onError(
            confirmed.error.type === 'card_error'
              ? t('deposit.cardError', { reason: confirmed.error.message ?? t('deposit.declined') })
              : t('deposit.cardFailed'),
          );
        else onVerified();
      }
    } finally {
      setWorking(false);
    }
  }

  return (
    <div className={styles.form} role="group" aria-label={t('deposit.cardDetails')}>
      <div className={styles.stripeElement}>
        <CardElement
          options={{ hidePostalCode: true, style: { base: { fontSize: '16px', color: '#0f172a' } } }}
          onChange={(event) => setComplete(event.complete)}
        />
      </div>
      <PayCardButton
        label={busy || working ? t('common.processing') : payLabel}
        reason={busy || working ? undefined : blockedReason}
        disabled={!complete || !depositValid || busy || working || !stripe}
        onPay={() => void pay()}
      />
    </div>
  );
}

export default function StripeCardForm(props: CardFormProps & { publishableKey: string }): ReactElement {
  const { publishableKey, ...rest } = props;
  return (
    <Elements stripe={stripeFor(publishableKey)}>
      <StripeCardInner {...rest} />
    </Elements>
  );
}
