/**
 * The step between filling a payment and paying it, shared by Transfer, Scan to pay and
 * approving a money request: "Pay ₹1,00,000.00 to Vikram Nair" with the name the server
 * verified, then Back / Confirm; only after Confirm is the transaction PIN asked for. The
 * amount is exact paise with both decimals, so what is confirmed is what is sent.
 */
import i18next from 'i18next';
import { useEffect, useId, useRef, type FormEvent, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPaise } from '../../../../contracts/money.ts';
import { digitsOnly } from '../../lib/forms.ts';
import { Button } from './Button.tsx';
import styles from './ConfirmPayment.module.css';
import { PasswordField } from './Field.tsx';

export interface Payee {
  name: string;
  /** The number shown beside the name: an account number, or a masked number or a handle. */
  accountNumber: string;
  /** That number's label when it is not the account ("Mobile", "Handle"). */
  numberLabel?: string | undefined;
  bankName?: string | undefined;
}

export interface ConfirmPaymentProps {
  stage: 'confirm' | 'pin';
  amountPaise: bigint;
  payee: Payee;
  reference?: string | undefined;
  pin: string;
  pinError?: string | undefined;
  busy: boolean;
  /** The last button's text ("Pay", "Approve and pay"). */
  payLabel?: string;
  onPinChange: (pin: string) => void;
  onBack: () => void;
  onConfirm: () => void;
  onPay: () => void;
}

export function confirmationText(amountPaise: bigint, name: string): string {
  return i18next.t('payment.confirmTitle', { amount: formatPaise(amountPaise), name });
}

export function ConfirmPayment(props: ConfirmPaymentProps): ReactElement {
  const { stage, amountPaise, payee, reference, onBack, onConfirm } = props;
  const titleId = useId();
  const { t } = useTranslation();
  return (
    <section className={styles.confirm} aria-labelledby={titleId}>
      <p className={styles.eyebrow}>{stage === 'confirm' ? t('payment.checkBeforePay') : t('payment.enterPin')}</p>
      <h3 className={styles.title} id={titleId} data-testid="confirm-pay-title">
        {confirmationText(amountPaise, payee.name)}
      </h3>
      <PayeeDetails payee={payee} reference={reference} />
      {stage === 'confirm' ? (
        <div className="modal-actions">
          <Button variant="secondary" onClick={onBack}>
            {t('payment.back')}
          </Button>
          <Button onClick={onConfirm} autoFocus>
            {t('payment.confirm')}
          </Button>
        </div>
      ) : (
        <PinStep {...props} />
      )}
    </section>
  );
}

/** Who is paid: the number (or handle) beside the name, the bank, the reference. */
function PayeeDetails({ payee, reference }: { payee: Payee; reference?: string | undefined }): ReactElement {
  const { t } = useTranslation();
  return (
    <dl className={styles.details}>
      <div>
        <dt>{payee.numberLabel ?? t('payment.account')}</dt>
        <dd className="mono">{payee.accountNumber}</dd>
      </div>
      {payee.bankName ? (
        <div>
          <dt>{t('payment.bank')}</dt>
          <dd>{payee.bankName}</dd>
        </div>
      ) : null}
      {reference ? (
        <div>
          <dt>{t('payment.reference')}</dt>
          <dd>{reference}</dd>
        </div>
      ) : null}
    </dl>
  );
}

/** The transaction PIN, asked only after Confirm, with Back and Pay. */
function PinStep({ pin, pinError, busy, payLabel, onPinChange, onBack, onPay }: ConfirmPaymentProps): ReactElement {
  const { t } = useTranslation();
  const pinField = useRef<HTMLInputElement>(null);
  // A refused PIN (empty again, its reason under it) is where the next try is typed.
  useEffect(() => {
    if (pinError) pinField.current?.focus();
  }, [pinError]);
  function submit(event: FormEvent): void {
    event.preventDefault();
    onPay();
  }
  return (
    <form onSubmit={submit} noValidate className="form-stack" aria-label={t('payment.pinForm')}>
      <PasswordField
        label={t('payment.pin')}
        inputMode="numeric"
        autoComplete="off"
        value={pin}
        onValueChange={(value) => onPinChange(digitsOnly(value, 6))}
        error={pinError}
        placeholder={t('payment.pinPlaceholder')}
        autoFocus
        ref={pinField}
      />
      <div className="modal-actions">
        <Button variant="secondary" onClick={onBack} disabled={busy}>
          {t('payment.back')}
        </Button>
        <Button type="submit" variant="success" disabled={busy}>
          {busy ? t('common.processing') : (payLabel ?? t('payment.pay'))}
        </Button>
      </div>
    </form>
  );
}
