/**
 * The green 'Account Verified' panel: name, account and, if present, bank.
 */
import type { ReactElement, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from './icons.tsx';
import styles from './VerifiedPanel.module.css';

export function VerifiedPanel({
  title,
  name,
  accountNumber,
  bankName,
  numberLabel,
  action,
}: {
  title?: string;
  name: string;
  accountNumber: string;
  /** The number's label when it is not the account ("Mobile", "Handle"). */
  numberLabel?: string | undefined;
  bankName?: string | undefined;
  action?: ReactNode;
}): ReactElement {
  const { t } = useTranslation();
  return (
    <div className={`verified-panel ${styles.panel}`} role="status">
      <p className={styles.title}>
        <Icon name="check" size={16} /> {title ?? t('payment.accountVerified')}
      </p>
      <dl className={styles.list}>
        <div>
          <dt>{t('payment.name')}</dt>
          <dd>{name}</dd>
        </div>
        <div>
          <dt>{numberLabel ?? t('payment.account')}</dt>
          <dd className="mono">{accountNumber}</dd>
        </div>
        {bankName ? (
          <div>
            <dt>{t('payment.bank')}</dt>
            <dd>{bankName}</dd>
          </div>
        ) : null}
      </dl>
      {action}
    </div>
  );
}
