/**
 * Where to pay a bank-transfer or UPI deposit, shown once the server has recorded it as
 * pending (its reply's `instructions`): the wallet's collection account, the UPI ID with a
 * QR code and a link that opens a UPI app with the amount and the reference filled in, and
 * the reference to quote, which is what the admin matches the bank statement against.
 */
import { useEffect, useRef, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { DepositInstructions as Instructions } from '../../../../../contracts/deposit-instructions.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { formatRupees } from '../../../lib/format.ts';
import styles from './DepositInstructions.module.css';

export function DepositInstructions({
  instructions,
  onDone,
}: {
  instructions: Instructions;
  onDone: () => void;
}): ReactElement {
  const { t } = useTranslation();
  const title = useRef<HTMLHeadingElement>(null);
  // The form that was submitted is gone: what it led to is where the keyboard and the screen reader go.
  useEffect(() => title.current?.focus(), []);
  const amount = formatRupees(instructions.amount);
  const rows: [string, string, boolean][] = [
    [t('topUp.payee'), instructions.accountName, false],
    [t('topUp.accountNumber'), instructions.accountNumber, true],
    [t('topUp.ifsc'), instructions.ifsc, true],
    [t('topUp.upiId'), instructions.upiId, true],
    [t('topUp.amount'), amount, false],
    [t('topUp.reference'), instructions.reference, false],
  ];
  return (
    <section className={styles.panel} aria-labelledby="deposit-instructions-title" data-testid="deposit-instructions">
      <h3 className={styles.title} id="deposit-instructions-title" tabIndex={-1} ref={title}>
        {t('topUp.title', { amount })}
      </h3>
      <div className={styles.body}>
        <div className={styles.qr}>
          <img src={instructions.upiQr} alt={t('topUp.qrAlt', { amount })} width={180} height={180} />
          <a className="link" href={instructions.upiLink} data-testid="upi-link">
            {t('topUp.openUpiApp')}
          </a>
        </div>
        <dl className={styles.details}>
          {rows.map(([label, value, mono]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd className={mono ? 'mono' : undefined}>{value}</dd>
            </div>
          ))}
        </dl>
      </div>
      <p className="small muted">{t('topUp.quoteReference')}</p>
      <div className="modal-actions">
        <Button onClick={onDone}>{t('topUp.done')}</Button>
      </div>
    </section>
  );
}
