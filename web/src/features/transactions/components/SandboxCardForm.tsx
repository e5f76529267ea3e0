/**
 * The sandbox card form (card provider 'sandbox'): card number, expiry, CVC, name, and the
 * documented test cards. Pay is disabled while any rule fails, saying why for the deposit's own fields.
 */
import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/ui/Field.tsx';
import {
  cardErrors,
  formatCardNumber,
  formatExpiry,
  SANDBOX_TEST_CARDS,
  sandboxPaymentMethodId,
  type SandboxCard,
} from './card-rules.ts';
import type { CardFormProps } from './card-form.ts';
import { PayCardButton } from './PayCardButton.tsx';
import styles from './card-form.module.css';

export function SandboxCardForm({
  payLabel,
  depositValid,
  blockedReason,
  busy,
  billing,
  onPaymentMethod,
}: CardFormProps): ReactElement {
  const { t } = useTranslation();
  const [card, setCard] = useState<SandboxCard>({ number: '', expiry: '', cvc: '', name: billing.name });
  const [touched, setTouched] = useState<Partial<Record<keyof SandboxCard, boolean>>>({});
  const errors = cardErrors(card);
  const valid = Object.keys(errors).length === 0;
  const shown = (field: keyof SandboxCard) => (touched[field] ? errors[field] : undefined);
  const set = (field: keyof SandboxCard, value: string) => setCard((current) => ({ ...current, [field]: value }));
  const blur = (field: keyof SandboxCard) => () => setTouched((current) => ({ ...current, [field]: true }));
  return (
    <div className={styles.form} aria-label={t('deposit.cardDetails')} role="group">
      <p className={styles.badge}>{t('deposit.sandboxBadge')}</p>
      <TextField
        label={t('deposit.cardNumber')}
        inputMode="numeric"
        autoComplete="cc-number"
        value={card.number}
        onValueChange={(value) => set('number', formatCardNumber(value))}
        onBlur={blur('number')}
        error={shown('number')}
        placeholder="4242 4242 4242 4242"
      />
      <div className="form-row">
        <TextField
          label={t('deposit.expiry')}
          inputMode="numeric"
          autoComplete="cc-exp"
          value={card.expiry}
          onValueChange={(value) => set('expiry', formatExpiry(value))}
          onBlur={blur('expiry')}
          error={shown('expiry')}
          placeholder="12/30"
        />
        <TextField
          label="CVC"
          inputMode="numeric"
          autoComplete="cc-csc"
          value={card.cvc}
          onValueChange={(value) => set('cvc', value.replace(/\D/g, '').slice(0, 4))}
          onBlur={blur('cvc')}
          error={shown('cvc')}
          placeholder="123"
        />
      </div>
      <TextField
        label={t('deposit.nameOnCard')}
        autoComplete="cc-name"
        value={card.name}
        onValueChange={(value) => set('name', value)}
        onBlur={blur('name')}
        error={shown('name')}
      />
      <details className={styles.testCards}>
        <summary>{t('deposit.testCards')}</summary>
        <ul>
          {SANDBOX_TEST_CARDS.map((test) => (
            <li key={test.number}>
              <span className="mono">{test.number}</span> — {t(test.outcome)}
            </li>
          ))}
        </ul>
      </details>
      <PayCardButton
        label={busy ? t('common.processing') : payLabel}
        reason={busy ? undefined : blockedReason}
        disabled={!valid || !depositValid || busy}
        onPay={() => void onPaymentMethod(sandboxPaymentMethodId(card.number))}
      />
    </div>
  );
}
