/**
 * The dashboard's Recent Activity: the 3 newest transactions, each read from the user's
 * side (Deposit, Debit or Credit), with View All.
 */
import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { Icon } from '../../../components/ui/icons.tsx';
import { Card, EmptyState } from '../../../components/ui/misc.tsx';
import { formatDate, formatRupees } from '../../../lib/format.ts';
import { useRecentTransactions } from '../api/get-recent-transactions.ts';
import styles from './RecentActivity.module.css';

const TYPE_TINT = { Deposit: styles.deposit, Debit: styles.debit, Credit: styles.credit };

export function RecentActivity({ userId }: { userId: string }): ReactElement {
  const recent = useRecentTransactions();
  return (
    <Card
      title="Recent Activity"
      actions={
        <Link to="/transactions" className="link">
          View All
        </Link>
      }
      className={styles.card}
    >
      {recent.isError ? <p className="field-error">Failed to fetch transactions</p> : null}
      {recent.data && recent.data.length === 0 ? <EmptyState title="No recent transactions" icon="history" /> : null}
      <ul className={styles.list}>
        {(recent.data ?? []).map((transaction) => {
          const type =
            transaction.sender === transaction.receiver
              ? 'Deposit'
              : transaction.sender === userId
                ? 'Debit'
                : 'Credit';
          return (
            <li key={transaction._id} className={`recent-item ${styles.item}`}>
              <span className={`${styles.icon} ${TYPE_TINT[type]}`} aria-hidden="true">
                <Icon name={type === 'Debit' ? 'send' : 'download'} size={18} />
              </span>
              <div className="recent-main">
                <p className={`recent-title ${styles.title}`}>
                  {type === 'Deposit'
                    ? 'Deposit'
                    : (transaction.counterpartyName ?? (type === 'Debit' ? transaction.receiver : transaction.sender))}
                </p>
                <p className="muted small">
                  {transaction.reference} · {formatDate(transaction.createdAt)}
                </p>
              </div>
              <span className={`amount amount-${type.toLowerCase()}`}>
                {type === 'Debit' ? '−' : '+'}
                {formatRupees(transaction.amount)}
              </span>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
