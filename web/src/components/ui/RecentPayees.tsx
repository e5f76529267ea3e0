/**
 * Recent payees as one-tap buttons (issue 43): the send dialog fills its payee with one, the
 * dashboard opens the send dialog with one. Shows nothing until the user has paid someone.
 * Each item is a button or a link, as the caller's `action` makes it, with RecentPayeeLabel inside.
 */
import type { ReactElement, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { RecentPayee } from '../../../../contracts/payees.ts';
import { Icon } from './icons.tsx';
import styles from './RecentPayees.module.css';

/**
 * One payee's icon and name, for the caller's button or link. Its accessible name is "Pay Ravi
 * Kumar" (in the chosen language), which contains the visible name, as a spoken command must.
 */
export function RecentPayeeLabel({ payee }: { payee: RecentPayee }): ReactElement {
  const { t } = useTranslation();
  return (
    <>
      <span className={styles.avatar} aria-hidden="true">
        <Icon name="users" size={16} />
      </span>
      <span className={styles.name} aria-hidden="true">
        {payee.name}
      </span>
      <span className="sr-only">{t('payees.pay', { name: payee.name })}</span>
    </>
  );
}

export function RecentPayees({
  payees,
  action,
  emptyText,
}: {
  payees: readonly RecentPayee[] | undefined;
  /** The button or link for one payee, with RecentPayeeLabel as its content (which names it). */
  action: (payee: RecentPayee, className: string) => ReactNode;
  /** Shown when there is no payee yet; nothing is shown without it. */
  emptyText?: string;
}): ReactElement | null {
  const { t } = useTranslation();
  if (!payees || payees.length === 0) return emptyText ? <p className="muted">{emptyText}</p> : null;
  return (
    <nav aria-label={t('payees.recent')} className={styles.recent}>
      <ul className={styles.list}>
        {payees.map((payee) => (
          <li key={payee.accountNumber}>{action(payee, styles.payee ?? '')}</li>
        ))}
      </ul>
    </nav>
  );
}
