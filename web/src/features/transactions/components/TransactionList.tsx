/**
 * One page of the history: a table on wide screens, cards on small ones. Type, sign and
 * counterparty are read from the user's side of each transaction (spec section 2); a card is
 * titled in people's words (lib/history-words.ts).
 */
import i18next from 'i18next';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { CardList } from '../../../components/CardList/CardList.tsx';
import { DataTable, type Column } from '../../../components/ui/DataTable.tsx';
import { Badge } from '../../../components/ui/misc.tsx';
import { formatDateTime, formatRupees, idTail } from '../../../lib/format.ts';
import { amountTone, counterpartyWords, historyTitle, isMoneyOut } from '../../../lib/history-words.ts';
import type { TransactionRecord } from '../api/get-transactions.ts';

export type ShownType = 'Deposit' | 'Debit' | 'Credit';

/** Spec section 2: Deposit when sender equals receiver; Debit when I sent it; otherwise Credit. */
export function shownType(transaction: Pick<TransactionRecord, 'sender' | 'receiver'>, userId: string): ShownType {
  if (transaction.sender === transaction.receiver) return 'Deposit';
  return transaction.sender === userId ? 'Debit' : 'Credit';
}

const TYPE_WORDS = {
  Deposit: 'transactions.typeDeposit',
  Debit: 'transactions.typeDebit',
  Credit: 'transactions.typeCredit',
} as const;

const STATUS_WORDS = {
  success: 'transactions.statusSuccess',
  pending: 'transactions.statusPending',
  failed: 'transactions.statusFailed',
} as const;

function StatusBadge({ status }: { status: TransactionRecord['status'] }): ReactElement {
  const { t } = useTranslation();
  return (
    <Badge tone={status === 'success' ? 'success' : status === 'pending' ? 'warning' : 'danger'}>
      {t(STATUS_WORDS[status])}
    </Badge>
  );
}

/** The status, and under a failed deposit the admin's reason (the customer may have missed the toast). */
function StatusCell({ transaction }: { transaction: TransactionRecord }): ReactElement {
  const { t } = useTranslation();
  return (
    <>
      <StatusBadge status={transaction.status} />
      {transaction.failureReason ? (
        <span className="muted small failure-reason">
          {t('transactions.failureReason', { reason: transaction.failureReason })}
        </span>
      ) : null}
    </>
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

/** A history row's own page (/transactions/:transactionId). */
function detailPath(id: string): string {
  return `/transactions/${encodeURIComponent(id)}`;
}

/**
 * A row's time. A bank or UPI deposit's is when it was requested (it is settled later, by an
 * admin): said so, as the statement says it, so the two never seem to disagree.
 */
function rowTime(row: TransactionRecord): string {
  const time = formatDateTime(row.createdAt);
  const requestedFirst = row.type === 'deposit' && (row.method === 'upi' || row.method === 'bank_transfer');
  return requestedFirst ? i18next.t('transactions.requestedAt', { time }) : time;
}

function columnsFor(userId: string): Column<TransactionRecord>[] {
  return [
    { id: 'date', header: i18next.t('transactions.date'), cell: (row) => rowTime(row) },
    {
      id: 'id',
      header: i18next.t('transactions.transactionId'),
      // The id opens the payment's own page (a link: click or Enter).
      cell: (row) => (
        <Link to={detailPath(row._id)} className="mono" title={row._id}>
          {row._id}
        </Link>
      ),
    },
    {
      id: 'amount',
      header: i18next.t('transactions.amount'),
      align: 'right',
      cell: (row) => <AmountCell transaction={row} userId={userId} />,
    },
    {
      id: 'type',
      header: i18next.t('transactions.type'),
      cell: (row) => i18next.t(TYPE_WORDS[shownType(row, userId)]),
    },
    // The spec's "Sent to" read wrong on money received: the column says both ways, each cell which.
    { id: 'to', header: i18next.t('transactions.counterparty'), cell: (row) => counterpartyWords(row, userId) },
    { id: 'reference', header: i18next.t('transactions.reference'), cell: (row) => row.reference },
    { id: 'status', header: i18next.t('transactions.status'), cell: (row) => <StatusCell transaction={row} /> },
  ];
}

export function TransactionList({ items, userId }: { items: TransactionRecord[]; userId: string }): ReactElement {
  // The column headers and cells are read in render, so a language switch redraws them.
  const { t } = useTranslation();
  return (
    <>
      <div className="only-desktop">
        <DataTable rows={items} columns={columnsFor(userId)} caption={t('transactions.caption')} />
      </div>
      <CardList
        rows={items}
        renderCard={(row) => (
          <>
            <div className="row-between">
              <Link to={detailPath(row._id)} className="history-title">
                <strong>{historyTitle(row, userId)}</strong>
              </Link>
              <AmountCell transaction={row} userId={userId} />
            </div>
            <p className="muted small">
              {rowTime(row)} · {counterpartyWords(row, userId)}
            </p>
            <p>{row.reference}</p>
            <div className="row-between">
              <span className="mono small" title={row._id}>
                {idTail(row._id)}
              </span>
              <StatusCell transaction={row} />
            </div>
          </>
        )}
      />
    </>
  );
}
