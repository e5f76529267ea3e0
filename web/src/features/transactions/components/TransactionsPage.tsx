/**
 * The transactions page (spec section 2): balance, Reset Transaction PIN, DEPOSIT / SEND /
 * SCAN TO PAY, server-side search, type filter, the 'N of M transactions' counter, the
 * table (cards on small screens), empty state and pagination (10 a page); a date range
 * (India Standard Time days) that filters the list and chooses the period of the statement
 * downloaded as CSV or PDF (issue 18).
 */
import { useDeferredValue, useEffect, useState, type ReactElement } from 'react';
import { HISTORY_PAGE_SIZE } from '../../../../../contracts/transactions.ts';
import { kolkataToday, statementPeriodSchema } from '../../../../../contracts/statements.ts';
import type { UserRecord } from '../../../../../contracts/users.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { DataTable, type Column } from '../../../components/ui/DataTable.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import { Badge, EmptyState, PageHeader } from '../../../components/ui/misc.tsx';
import { formatDateTime, formatRupees } from '../../../lib/format.ts';
import { useHistory, type HistoryType, type TransactionRecord } from '../api/get-transactions.ts';
import { downloadStatement, type StatementFormat } from '../api/download-statement.ts';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { DepositDialog } from './DepositDialog.tsx';
import './transactions-statement.css';
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

/** The period a statement download covers: the filter's dates, else this month up to today. */
export function statementPeriod(
  from: string,
  to: string,
  today: string = kolkataToday(),
): { from: string; to: string } {
  const end = to || today;
  return { from: from || `${end.slice(0, 8)}01`, to: end };
}

/** The date range: filters the list (either end may be empty) and is the statement's period. */
function DateRange(props: {
  from: string;
  to: string;
  onChange: (range: { from: string; to: string }) => void;
}): ReactElement {
  const notify = useToast();
  const [busy, setBusy] = useState<StatementFormat | null>(null);
  const today = kolkataToday();
  const period = statementPeriod(props.from, props.to, today);
  const checked = statementPeriodSchema.safeParse(period);
  const problem = checked.success ? null : (checked.error.issues[0]?.message ?? 'Invalid dates');
  async function download(format: StatementFormat): Promise<void> {
    setBusy(format);
    try {
      await downloadStatement(format, period);
    } catch (error) {
      notify({ tone: 'error', message: error instanceof Error ? error.message : 'Failed to download the statement' });
    } finally {
      setBusy(null);
    }
  }
  return (
    <div className="statement-range" role="group" aria-label="Date range and statement">
      <label className="statement-date">
        <span>From</span>
        <input
          type="date"
          className="input"
          value={props.from}
          max={today}
          onChange={(event) => props.onChange({ from: event.target.value, to: props.to })}
        />
      </label>
      <label className="statement-date">
        <span>To</span>
        <input
          type="date"
          className="input"
          value={props.to}
          max={today}
          onChange={(event) => props.onChange({ from: props.from, to: event.target.value })}
        />
      </label>
      {props.from || props.to ? (
        <Button variant="secondary" size="sm" onClick={() => props.onChange({ from: '', to: '' })}>
          Clear dates
        </Button>
      ) : null}
      <div className="statement-downloads">
        <span className="small muted">
          Download statement ({period.from} to {period.to}):
        </span>
        {(['csv', 'pdf'] as const).map((format) => (
          <Button
            key={format}
            variant="secondary"
            size="sm"
            disabled={problem !== null || busy !== null}
            onClick={() => void download(format)}
          >
            <Icon name="download" size={16} /> {busy === format ? 'Preparing...' : format.toUpperCase()}
          </Button>
        ))}
      </div>
      {problem ? (
        <p className="field-error statement-problem" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
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
  const [range, setRange] = useState({ from: '', to: '' });
  const deferredSearch = useDeferredValue(search);
  // Dates out of order are not sent (the range says why); the list stays unfiltered by date.
  const dates = range.from && range.to && range.from > range.to ? { from: '', to: '' } : range;
  const history = useHistory({ page, search: deferredSearch, type, ...dates });
  const everything = useHistory({ page: 1, pageSize: 1, search: '', type: 'all' });
  useEffect(() => setPage(1), [deferredSearch, type, dates.from, dates.to]);
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
          <DateRange from={range.from} to={range.to} onChange={setRange} />
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
