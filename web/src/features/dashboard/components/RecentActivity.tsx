/**
 * The dashboard's Recent Activity: the 3 newest transactions, each in people's words from
 * the user's side ("Paid to Vikram Nair", lib/history-words.ts), each opening the payment's own
 * page, with View All.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Icon } from '../../../components/ui/icons.tsx';
import { Card, EmptyState } from '../../../components/ui/misc.tsx';
import { formatDateTime, formatRupees } from '../../../lib/format.ts';
import { amountTone, historyTitle, isMoneyOut } from '../../../lib/history-words.ts';
import { useRecentTransactions } from '../api/get-recent-transactions.ts';
import styles from './RecentActivity.module.css';

export function RecentActivity({ userId }: { userId: string }): ReactElement {
  const { t } = useTranslation();
  const recent = useRecentTransactions();
  return (
    <Card
      title={t('dashboard.recentActivity')}
      actions={
        <Link to="/transactions" className="link">
          {t('dashboard.viewAll')}
        </Link>
      }
      className={styles.card}
    >
      {recent.isError ? <p className="field-error">{t('dashboard.fetchFailed')}</p> : null}
      {recent.data && recent.data.length === 0 ? <EmptyState title={t('dashboard.noRecent')} icon="history" /> : null}
      <ul className={styles.list}>
        {(recent.data ?? []).map((transaction) => {
          const out = isMoneyOut(transaction, userId);
          const tint = transaction.type === 'deposit' ? styles.deposit : out ? styles.debit : styles.credit;
          return (
            <li key={transaction._id} className={`recent-item ${styles.item}`}>
              <span className={`${styles.icon} ${tint}`} aria-hidden="true">
                <Icon name={out ? 'send' : 'download'} size={18} />
              </span>
              <div className="recent-main">
                <p className={`recent-title ${styles.title}`}>
                  {/* Each entry opens the payment's own page, as a history row does. */}
                  <Link to={`/transactions/${encodeURIComponent(transaction._id)}`}>
                    {historyTitle(transaction, userId)}
                  </Link>
                </p>
                <p className="muted small">
                  {transaction.reference} · {formatDateTime(transaction.createdAt)}
                </p>
              </div>
              <span className={`amount amount-${amountTone(transaction, userId)}`}>
                {out ? '−' : '+'}
                {formatRupees(transaction.amount)}
              </span>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
