/**
 * The transactions page (spec section 2): balance, Reset Transaction PIN, DEPOSIT / SEND /
 * SCAN TO PAY, server-side search, type filter, the 'N of M transactions' counter, the
 * table (cards on small screens), empty state and pagination (10 a page); a date range
 * (India Standard Time days) that filters the list and chooses the period of the statement
 * downloaded as CSV or PDF. While the rate limit holds the list's read, the page says so and
 * keeps the rows it had; "No transactions found" is said only of an answer to the current filters.
 */
import { useEffect, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserRecord } from '../../../../../contracts/users.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import { EmptyState, PageHeader } from '../../../components/ui/misc.tsx';
import { HeldReadNotice, useHeldSeconds } from '../../../components/ui/RateLimitNotice.tsx';
import { formatBalance } from '../../../lib/format.ts';
import { DepositDialog } from './DepositDialog.tsx';
import { HistoryPagination, HistoryToolbar } from './HistoryToolbar.tsx';
import { ScanToPayDialog } from './ScanToPayDialog.tsx';
import { TransactionList } from './TransactionList.tsx';
import { TransferDialog } from './TransferDialog.tsx';
import styles from './TransactionsPage.module.css';
import { useTransactionHistory } from './useTransactionHistory.ts';

type TransactionHistory = ReturnType<typeof useTransactionHistory>;

export interface TransactionsPageProps {
  user: UserRecord;
  onResetPin: () => void;
  /** Account number from the /user/:accountNumber deep link: opens SEND with it verified. */
  payTo?: string | undefined;
  onPayToHandled?: () => void;
  /** The dashboard's Add Money (?open=deposit): opens Deposit as the page opens. */
  openDeposit?: boolean | undefined;
}

export function TransactionsPage({
  user,
  onResetPin,
  payTo,
  onPayToHandled,
  openDeposit,
}: TransactionsPageProps): ReactElement {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<'deposit' | 'send' | 'scan' | null>(
    payTo ? 'send' : openDeposit ? 'deposit' : null,
  );
  const list = useTransactionHistory();
  useEffect(() => {
    if (payTo) setDialog('send');
  }, [payTo]);

  return (
    <div className="page">
      <PageHeader
        title={t('transactions.title')}
        subtitle={
          <>
            {t('transactions.currentBalance')}{' '}
            <strong className={`balance-inline ${styles.balance}`}>{formatBalance(user.balance)}</strong> ·{' '}
            <button type="button" className={styles.linkButton} onClick={onResetPin}>
              {t('transactions.resetPin')}
            </button>
          </>
        }
      >
        <Button onClick={() => setDialog('deposit')}>
          <Icon name="plus" size={18} /> {t('transactions.deposit')}
        </Button>
        <Button variant="secondary" onClick={() => setDialog('send')}>
          <Icon name="send" size={18} /> {t('transactions.send')}
        </Button>
        <Button variant="secondary" onClick={() => setDialog('scan')}>
          <Icon name="qr" size={18} /> {t('transactions.scanToPay')}
        </Button>
      </PageHeader>
      <HistorySection list={list} userId={user._id} />
      <DepositDialog
        open={dialog === 'deposit'}
        onOpenChange={(open) => {
          setDialog(open ? 'deposit' : null);
          // Closed: a reload or Back must not open it again.
          if (!open && openDeposit) onPayToHandled?.();
        }}
        user={user}
      />
      <TransferDialog
        open={dialog === 'send'}
        onOpenChange={(open) => {
          setDialog(open ? 'send' : null);
          if (!open) onPayToHandled?.();
        }}
        userId={user._id}
        balance={user.balance}
        initialReceiver={payTo}
      />
      <ScanToPayDialog
        open={dialog === 'scan'}
        onOpenChange={(open) => setDialog(open ? 'scan' : null)}
        userId={user._id}
        balance={user.balance}
      />
    </div>
  );
}

/**
 * The list with its toolbar and pages; while the rate limit holds its read, the held notice
 * instead of an error or "loading", over the rows it had.
 */
function HistorySection({ list, userId }: { list: TransactionHistory; userId: string }): ReactElement {
  const { t } = useTranslation();
  const { history, items } = list;
  const heldSeconds = useHeldSeconds(history);
  const held = heldSeconds > 0;
  return (
    <section className="card">
      <HistoryToolbar list={list} />
      <HeldReadNotice seconds={heldSeconds} hasData={items.length > 0} />
      {history.isError && !held ? <EmptyState title={t('dashboard.fetchFailed')} text={history.error.message} /> : null}
      {history.isPending && !held ? <p className="muted pad">{t('transactions.loading')}</p> : null}
      {history.isSuccess && !history.isPlaceholderData && !held && items.length === 0 ? (
        <EmptyState title={t('transactions.noneFound')} text={t('transactions.adjustFilters')} icon="search" />
      ) : null}
      {items.length > 0 ? <TransactionList items={items} userId={userId} /> : null}
      <HistoryPagination list={list} />
    </section>
  );
}
