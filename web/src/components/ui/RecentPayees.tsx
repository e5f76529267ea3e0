/**
 * Recent payees as one-tap buttons (issue 43): the send dialog fills its payee with one, the
 * dashboard opens the send dialog with one. Shows nothing until the user has paid someone.
 * Each item is a button or a link, as the caller's `action` makes it.
 */
import type { ReactElement, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { RecentPayee } from '../../../../contracts/payees.ts';
import styles from './RecentPayees.module.css';

/** "RK" for Ravi Kumar: the avatar's letters. */
function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return words
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('');
}

/** One payee's avatar and name, for the caller's button or link. */
export function RecentPayeeLabel({ payee }: { payee: RecentPayee }): ReactElement {
  return (
    <>
      <span className={styles.avatar} aria-hidden="true">
        {initials(payee.name)}
      </span>
      <span className={styles.name}>{payee.name}</span>
    </>
  );
}

export function RecentPayees({
  payees,
  action,
  emptyText,
}: {
  payees: readonly RecentPayee[] | undefined;
  /** The button or link for one payee; its content is RecentPayeeLabel, its name says whom it pays. */
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
