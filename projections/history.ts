/**
 * Projection "history": each user's transaction list, one row per participant of each
 * money movement, typed as that participant sees it: 'deposit' (sender = receiver = the
 * wallet; the counterparty is the funding account, shown as its method), 'debit' for the
 * sender, 'credit' for the receiver. A deposit request is a pending row that its
 * settlement or failure later updates in place. A reversal (TransferReversed,
 * DepositReversed, MoneyRequestPaymentReversed) adds new rows - 'debit' for whoever gives the money back, 'credit' for
 * whoever gets it - referenced "Reversal: <reason>"; the original rows stay as they were.
 * It also keeps each user's number of rows per type (read.history_counts) for page totals.
 */
import type { AccountId } from '../ledger/index.ts';
import type { AnyTransaction, ProjectedEvent } from './event-batch.ts';
import { addToCounters, insertRows, table, updateRows, type Columns } from './bulk.ts';
import { nameOf, resolveNames, type Names } from './names.ts';
import { fundingAccount } from '../ledger/index.ts';
import type { Selectable } from 'kysely';
import type { HistoryRow, HistoryStatus, HistoryType } from './tables.ts';
import type { Projection } from './definition.ts';

const HISTORY: Columns = [
  ['account_id', 'text'],
  ['stream_id', 'text'],
  ['transaction_id', 'text'],
  ['type', 'text'],
  ['sender_id', 'text'],
  ['receiver_id', 'text'],
  ['counterparty_id', 'text'],
  ['counterparty_name', 'text'],
  ['amount_paise', 'bigint'],
  ['reference', 'text'],
  ['status', 'text'],
  ['method', 'text'],
  ['created_at', 'timestamptz'],
  ['updated_at', 'timestamptz'],
  ['tx_id', 'xid8'],
  ['position', 'bigint'],
];
const COUNTS: Columns = [
  ['account_id', 'text'],
  ['type', 'text'],
  ['rows', 'bigint'],
];
const STATUS_UPDATE: Columns = [
  ['account_id', 'text'],
  ['stream_id', 'text'],
  ['status', 'text'],
  ['updated_at', 'timestamptz'],
];

/** A history row as this projection writes it: the read table's row. */
type NewRow = Selectable<HistoryRow>;

interface StatusChange {
  account_id: string;
  stream_id: string;
  status: HistoryStatus;
  updated_at: Date;
}

interface Movement {
  transactionId: string;
  from: AccountId;
  to: AccountId;
  amountPaise: bigint;
  reference: string;
  method: string;
}

function movementRows(event: ProjectedEvent, movement: Movement, names: Names): NewRow[] {
  const base = {
    stream_id: event.streamId,
    transaction_id: movement.transactionId,
    sender_id: movement.from,
    receiver_id: movement.to,
    amount_paise: movement.amountPaise,
    reference: movement.reference,
    status: 'success' as const,
    method: movement.method,
    created_at: event.recordedAt,
    updated_at: event.recordedAt,
    tx_id: event.txId,
    position: event.position,
  };
  return [
    {
      ...base,
      account_id: movement.from,
      type: 'debit',
      counterparty_id: movement.to,
      counterparty_name: nameOf(names, movement.to),
    },
    {
      ...base,
      account_id: movement.to,
      type: 'credit',
      counterparty_id: movement.from,
      counterparty_name: nameOf(names, movement.from),
    },
  ];
}

function rowsOf(event: ProjectedEvent, names: Names): NewRow[] {
  switch (event.type) {
    case 'DepositRequested': {
      const { depositId, walletId, amountPaise, method, reference } = event.data;
      const funding = fundingAccount(method);
      return [
        {
          account_id: walletId,
          stream_id: event.streamId,
          transaction_id: depositId,
          type: 'deposit',
          sender_id: walletId,
          receiver_id: walletId,
          counterparty_id: funding,
          counterparty_name: nameOf(names, funding),
          amount_paise: amountPaise,
          reference,
          status: 'pending',
          method,
          created_at: event.recordedAt,
          updated_at: event.recordedAt,
          tx_id: event.txId,
          position: event.position,
        },
      ];
    }
    case 'TransferCompleted': {
      const { transferId, fromAccountId, toAccountId, amountPaise, reference } = event.data;
      return movementRows(
        event,
        { transactionId: transferId, from: fromAccountId, to: toAccountId, amountPaise, reference, method: 'transfer' },
        names,
      );
    }
    case 'MoneyRequestAccepted': {
      const { requestId, payerId, requesterId, amountPaise, reference } = event.data;
      return movementRows(
        event,
        { transactionId: requestId, from: payerId, to: requesterId, amountPaise, reference, method: 'request' },
        names,
      );
    }
    case 'TransferReversed': {
      const { transferId, fromAccountId, toAccountId, amountPaise, reason } = event.data;
      // The original receiver gives the money back to the original sender.
      return movementRows(
        event,
        {
          transactionId: transferId,
          from: toAccountId,
          to: fromAccountId,
          amountPaise,
          reference: reversalReference(reason),
          method: 'reversal',
        },
        names,
      );
    }
    case 'MoneyRequestPaymentReversed': {
      const { requestId, requesterId, payerId, amountPaise, reason } = event.data;
      // The requester gives the payment back to the payer.
      return movementRows(
        event,
        {
          transactionId: requestId,
          from: requesterId,
          to: payerId,
          amountPaise,
          reference: reversalReference(reason),
          method: 'reversal',
        },
        names,
      );
    }
    case 'DepositReversed': {
      const { depositId, walletId, amountPaise, method, reason } = event.data;
      const funding = fundingAccount(method);
      return [
        {
          account_id: walletId,
          stream_id: event.streamId,
          transaction_id: depositId,
          type: 'debit',
          sender_id: walletId,
          receiver_id: funding,
          counterparty_id: funding,
          counterparty_name: nameOf(names, funding),
          amount_paise: amountPaise,
          reference: reversalReference(reason),
          status: 'success',
          method: 'reversal',
          created_at: event.recordedAt,
          updated_at: event.recordedAt,
          tx_id: event.txId,
          position: event.position,
        },
      ];
    }
    case 'WalletOpened':
    case 'DepositSettled':
    case 'DepositFailed':
    case 'MoneyRequested':
    case 'MoneyRequestRejected':
      return [];
    default: {
      const unknown: never = event;
      throw new Error(`history: unhandled event ${JSON.stringify(unknown)}`);
    }
  }
}

export function reversalReference(reason: string): string {
  return `Reversal: ${reason}`;
}

/** A stream has one row per participant, plus one per participant of its reversal. */
function rowKey(row: NewRow): string {
  return row.method === 'reversal'
    ? `${row.account_id}\u0000${row.stream_id}\u0000${row.position}`
    : `${row.account_id}\u0000${row.stream_id}`;
}

function statusChangeOf(event: ProjectedEvent): StatusChange | undefined {
  if (event.type === 'DepositSettled')
    return {
      account_id: event.data.walletId,
      stream_id: event.streamId,
      status: 'success',
      updated_at: event.recordedAt,
    };
  if (event.type === 'DepositFailed')
    return {
      account_id: event.data.walletId,
      stream_id: event.streamId,
      status: 'failed',
      updated_at: event.recordedAt,
    };
  return undefined;
}

function participants(events: readonly ProjectedEvent[]): string[] {
  const ids: string[] = [];
  for (const event of events) {
    if (event.type === 'DepositRequested') ids.push(fundingAccount(event.data.method));
    if (event.type === 'TransferCompleted') ids.push(event.data.fromAccountId, event.data.toAccountId);
    if (event.type === 'MoneyRequestAccepted') ids.push(event.data.payerId, event.data.requesterId);
    if (event.type === 'TransferReversed') ids.push(event.data.fromAccountId, event.data.toAccountId);
    if (event.type === 'DepositReversed') ids.push(fundingAccount(event.data.method));
    if (event.type === 'MoneyRequestPaymentReversed') ids.push(event.data.requesterId, event.data.payerId);
  }
  return ids;
}

async function apply(trx: AnyTransaction, schema: string, events: readonly ProjectedEvent[]): Promise<void> {
  const names = await resolveNames(trx, participants(events));
  const created = new Map<string, NewRow>();
  const changes: StatusChange[] = [];
  for (const event of events) {
    for (const row of rowsOf(event, names)) created.set(rowKey(row), row);
    const change = statusChangeOf(event);
    if (!change) continue;
    // A row made earlier in this batch is changed before it is written; others by UPDATE.
    const pending = created.get(`${change.account_id}\u0000${change.stream_id}`);
    if (pending) Object.assign(pending, { status: change.status, updated_at: change.updated_at });
    else changes.push(change);
  }
  // Changes touch only rows of earlier batches, so they go first: a reversal row inserted by
  // this batch on the same stream must not take the settlement's updated_at.
  await updateRows(trx, table(schema, 'history'), STATUS_UPDATE, ['account_id', 'stream_id'], changes);
  const rows = [...created.values()];
  await insertRows(trx, table(schema, 'history'), HISTORY, rows);
  await addToCounters(trx, table(schema, 'history_counts'), COUNTS, ['account_id', 'type'], 'rows', countsOf(rows));
}

/** The batch's new rows per account and type (a row's type never changes after insert). */
function countsOf(rows: readonly NewRow[]): { account_id: string; type: HistoryType; rows: number }[] {
  const counts = new Map<string, { account_id: string; type: HistoryType; rows: number }>();
  for (const row of rows) {
    const key = `${row.account_id}\u0000${row.type}`;
    const count = counts.get(key) ?? { account_id: row.account_id, type: row.type, rows: 0 };
    count.rows += 1;
    counts.set(key, count);
  }
  return [...counts.values()];
}

/**
 * Counts before rows: a replay's swap takes the tables' locks in this order, the order in which
 * a history page reads them (readHistoryPage, one transaction) - the other order deadlocks.
 */
export const historyProjection: Projection = { name: 'history', tables: ['history_counts', 'history'], apply };
