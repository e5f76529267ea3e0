/**
 * One page of the history: a table on wide screens, cards on small ones. Type, sign and
 * counterparty are read from the user's side of each transaction (spec section 2); a card is
 * titled in people's words (lib/history-words.ts).
 */
import type { ReactElement } from 'react';
import { CardList } from '../../../components/CardList/CardList.tsx';
import { DataTable, type Column } from '../../../components/ui/DataTable.tsx';
import { Badge } from '../../../components/ui/misc.tsx';
import { formatDateTime, formatRupees } from '../../../lib/format.ts';
import { amountTone, historyTitle, isMoneyOut } from '../../../lib/history-words.ts';
import type { TransactionRecord } from '../api/get-transactions.ts';

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
  const sign = isMoneyOut(transaction, userId) ? '−' : '+';
  return (
    <span className={`amount amount-${amountTone(transaction, userId)}`}>
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

function columnsFor(userId: string): Column<TransactionRecord>[] {
  return [
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
      cell: (row) => <AmountCell transaction={row} userId={userId} />,
    },
    { id: 'type', header: 'Type', cell: (row) => shownType(row, userId) },
    { id: 'to', header: 'Sent to', cell: (row) => sentTo(row, userId) },
    { id: 'reference', header: 'Reference', cell: (row) => row.reference },
    { id: 'status', header: 'Status', cell: (row) => <StatusBadge status={row.status} /> },
  ];
}

export function TransactionList({ items, userId }: { items: TransactionRecord[]; userId: string }): ReactElement {
  return (
    <>
      <div className="only-desktop">
        <DataTable rows={items} columns={columnsFor(userId)} caption="Transactions" />
      </div>
      <CardList
        rows={items}
        renderCard={(row) => (
          <>
            <div className="row-between">
              <strong className="history-title">{historyTitle(row, userId)}</strong>
              <AmountCell transaction={row} userId={userId} />
            </div>
            <p className="muted small">
              {formatDateTime(row.createdAt)} · {sentTo(row, userId)}
            </p>
            <p>{row.reference}</p>
            <div className="row-between">
              <span className="mono small">{row._id.slice(0, 8)}...</span>
              <StatusBadge status={row.status} />
            </div>
          </>
        )}
      />
    </>
  );
}
