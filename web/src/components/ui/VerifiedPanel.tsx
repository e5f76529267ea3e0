/**
 * The green 'Account Verified' panel: name, account and, if present, bank.
 */
import type { ReactElement, ReactNode } from 'react';
import { Icon } from './icons.tsx';
import styles from './VerifiedPanel.module.css';

export function VerifiedPanel({
  title = 'Account Verified',
  name,
  accountNumber,
  bankName,
  action,
}: {
  title?: string;
  name: string;
  accountNumber: string;
  bankName?: string | undefined;
  action?: ReactNode;
}): ReactElement {
  return (
    <div className={`verified-panel ${styles.panel}`} role="status">
      <p className={styles.title}>
        <Icon name="check" size={16} /> {title}
      </p>
      <dl className={styles.list}>
        <div>
          <dt>Name</dt>
          <dd>{name}</dd>
        </div>
        <div>
          <dt>Account</dt>
          <dd className="mono">{accountNumber}</dd>
        </div>
        {bankName ? (
          <div>
            <dt>Bank</dt>
            <dd>{bankName}</dd>
          </div>
        ) : null}
      </dl>
      {action}
    </div>
  );
}
