/**
 * The transactions page (spec section 2): balance, Reset Transaction PIN, DEPOSIT / SEND /
 * SCAN TO PAY, server-side search, type filter, the 'N of M transactions' counter, the
 * table (cards on small screens), empty state and pagination (10 a page).
 */
import { useDeferredValue, useEffect, useState, type ReactElement } from 'react';
import { HISTORY_PAGE_SIZE } from '../../../../../contracts/transactions.ts';
import type { UserRecord } from '../../../../../contracts/users.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { DataTable, type Column } from '../../../components/ui/DataTable.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import { Badge, EmptyState, PageHeader } from '../../../components/ui/misc.tsx';
import { formatDateTime, formatRupees } from '../../../lib/format.ts';
import { useHistory, type HistoryType, type TransactionRecord } from '../api/get-transactions.ts';
import { DepositDialog } from './DepositDialog.tsx';
import { ScanToPayDialog } from './ScanToPayDialog.tsx';
import { TransferDialog } from './TransferDialog.tsx';

export type ShownType = 'Deposit' | 'Debit' | 'Credit';

/** Spec section 2: Deposit when sender equals receiver; Debit when I sent it; otherwise Credit. */
export function shownType(transaction: Pick<TransactionRecord, 'sender' | 'receiver'>, userId: string): ShownType {
  if (transaction.sender === transaction.receiver) return 'Deposit';
  return transaction.sender === userId ? 'Debit' : 'Credit';
}

function StatusBadge({ status }: { status: string }): ReactElement {
  return (
    <Badge tone={status === 'success' ? 'success' : status === 'pending' ? 'warning' : 'danger'}>
      {status === 'success' ? 'Success' : status.charAt(0).toUpperCase() + status.slice(1)}
    </Badge>
  );
}

function AmountCell({ transaction, userId }: { transaction: TransactionRecord; userId: string }): ReactElement {
  const type = shownType(transaction, userId);
  const sign = type === 'Debit' ? '−' : '+';
  return (
    <span className={`amount amount-${type.toLowerCase()}`}>
      {sign}
      {formatRupees(transaction.amount)}
    </span>
  );
}

function sentTo(transaction: TransactionRecord, userId: string): string {
  if (transaction.sender === transaction.receiver) return 'Self';
  const other = transaction.sender === userId ? transaction.receiver : transaction.sender;
  return transaction.counterpartyName ? `${transaction.counterpartyName} (${other.slice(0, 8)})` : other;
}

export interface TransactionsPageProps {
  user: UserRecord;
  onResetPin: () => void;
  /** Account number from the /user/:accountNumber deep link: opens SEND with it verified. */
  payTo?: string | undefined;
  onPayToHandled?: () => void;
}

export function TransactionsPage({ user, onResetPin, payTo, onPayToHandled }: TransactionsPageProps): ReactElement {
  const [dialog, setDialog] = useState<'deposit' | 'send' | 'scan' | null>(payTo ? 'send' : null);
  const [search, setSearch] = useState('');
  const [type, setType] = useState<HistoryType>('all');
  const [page, setPage] = useState(1);
  const deferredSearch = useDeferredValue(search);
  const history = useHistory({ page, search: deferredSearch, type });
  const everything = useHistory({ page: 1, pageSize: 1, search: '', type: 'all' });
  useEffect(() => setPage(1), [deferredSearch, type]);
  useEffect(() => {
    if (payTo) setDialog('send');
  }, [payTo]);

  const items = history.data?.items ?? [];
  const total = history.data?.total ?? 0;
  const allTotal = everything.data?.total ?? total;
  // A search with more matches than the server counts has a total of "at least" (1,000+).
  const exact = history.data?.totalExact ?? true;
  const totalText = exact ? String(total) : `${total.toLocaleString('en-IN')}+`;
  const first = total === 0 ? 0 : (page - 1) * HISTORY_PAGE_SIZE + 1;
  const last = exact ? Math.min(total, page * HISTORY_PAGE_SIZE) : (page - 1) * HISTORY_PAGE_SIZE + items.length;
  const hasNext = exact ? last < total : items.length === HISTORY_PAGE_SIZE;
  const columns: Column<TransactionRecord>[] = [
    { id: 'date', header: 'Date', cell: (row) => formatDateTime(row.createdAt) },
    {
      id: 'id',
      header: 'Transaction ID',
      cell: (row) => (
        <span className="mono" title={row._id}>
          {row._id}
        </span>
      ),
    },
    {
      id: 'amount',
      header: 'Amount',
      align: 'right',
      cell: (row) => <AmountCell transaction={row} userId={user._id} />,
    },
    { id: 'type', header: 'Type', cell: (row) => shownType(row, user._id) },
    { id: 'to', header: 'Sent to', cell: (row) => sentTo(row, user._id) },
    { id: 'reference', header: 'Reference', cell: (row) => row.reference },
    { id: 'status', header: 'Status', cell: (row) => <StatusBadge status={row.status} /> },
  ];

  return (
    <div className="page">
      <PageHeader
        title="TRANSACTIONS"
        subtitle={
          <>
            Current balance <strong className="balance-inline">{formatRupees(user.balance)}</strong> ·{' '}
            <button type="button" className="link-button" onClick={onResetPin}>
              Reset Transaction PIN
            </button>
          </>
        }
      >
        <Button onClick={() => setDialog('deposit')}>
          <Icon name="plus" size={18} /> DEPOSIT
        </Button>
        <Button variant="secondary" onClick={() => setDialog('send')}>
          <Icon name="send" size={18} /> SEND
        </Button>
        <Button variant="secondary" onClick={() => setDialog('scan')}>
          <Icon name="qr" size={18} /> SCAN TO PAY
        </Button>
      </PageHeader>
      <section className="card">
        <div className="toolbar">
          <label className="search">
            <Icon name="search" size={18} />
            <span className="sr-only">Search transactions</span>
            <input
              type="search"
              className="input"
              placeholder="Search transactions..."
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
          </label>
          <label className="filter">
            <span className="sr-only">Type</span>
            <select
              className="input"
              value={type}
              onChange={(event) => setType(event.target.value as HistoryType)}
              aria-label="Type filter"
            >
              <option value="all">All Types</option>
              <option value="credit">Credit</option>
              <option value="debit">Debit</option>
              <option value="deposit">Deposit</option>
            </select>
          </label>
          <p className="counter" aria-live="polite">
            {totalText} of {allTotal} transactions
          </p>
        </div>
        {history.isError ? <EmptyState title="Failed to fetch transactions" text={history.error.message} /> : null}
        {history.isPending ? <p className="muted pad">Loading transactions...</p> : null}
        {!history.isPending && !history.isError && items.length === 0 ? (
          <EmptyState title="No transactions found" text="Try adjusting your search or filter criteria" icon="search" />
        ) : null}
        {items.length > 0 ? (
          <>
            <div className="only-desktop">
              <DataTable rows={items} columns={columns} caption="Transactions" />
            </div>
            <ul className="only-mobile card-list">
              {items.map((row) => (
                <li key={row._id} className="list-card">
                  <div className="row-between">
                    <strong>{shownType(row, user._id)}</strong>
                    <AmountCell transaction={row} userId={user._id} />
                  </div>
                  <p className="muted small">
                    {formatDateTime(row.createdAt)} · {sentTo(row, user._id)}
                  </p>
                  <p>{row.reference}</p>
                  <div className="row-between">
                    <span className="mono small">{row._id.slice(0, 8)}...</span>
                    <StatusBadge status={row.status} />
                  </div>
                </li>
              ))}
            </ul>
          </>
        ) : null}
        <nav className="pagination" aria-label="Pagination">
          <span>
            Showing {first}–{last} of {totalText} transactions
          </span>
          <div>
            <Button
              variant="secondary"
              size="sm"
              disabled={page <= 1}
              onClick={() => setPage((current) => current - 1)}
            >
              Previous
            </Button>
            <Button variant="secondary" size="sm" disabled={!hasNext} onClick={() => setPage((current) => current + 1)}>
              Next
            </Button>
          </div>
        </nav>
      </section>
      <DepositDialog
        open={dialog === 'deposit'}
        onOpenChange={(open) => setDialog(open ? 'deposit' : null)}
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
