/**
 * Account audit: one account's statement (read.statement_lines, the accounts projection: every
 * posting with its running balance, counterparty, event type and position), as keyset pages
 * or as a CSV that streams in bounded memory. (The raw events of the account's streams are
 * the explorer's: ./explorer.ts.)
 *
 * Why keyset batches for the CSV: the table's `(account_id, sequence)` key orders a
 * statement; each batch is one short query after the last sequence written, so memory holds
 * one batch at a time, no transaction stays open for the whole download (it would hold the
 * snapshot xmin, and so every projection, back), and the socket's backpressure decides when
 * the next batch is read.
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { StatementLine, StatementPage } from '../contracts/admin.ts';
import { rupeesFromPaise, rupeesText } from '../contracts/money.ts';
import type { LedgerEventType } from '../ledger/index.ts';
import { readStatement, readViews, type StatementLineRow } from '../projections/index.ts';
import { CSV_BATCH_ROWS, spreadsheetSafe } from '../user-statements/index.ts';
import { keysetPage, type PageRequest } from './paging.ts';

export interface StatementFilter {
  accountId: string;
  from?: Date | undefined;
  to?: Date | undefined;
  /** Event types to keep (e.g. TransferCompleted, DepositReversed). */
  eventTypes?: readonly LedgerEventType[] | undefined;
  direction?: 'credit' | 'debit' | undefined;
}

type StatementRowRead = Selectable<StatementLineRow>;

/** The one reader of read.statement_lines (projections/accounts/queries.ts), with this module's filter. */
async function statementRows(
  db: Kysely<unknown>,
  filter: StatementFilter,
  afterSequence: bigint | undefined,
  limit: number,
): Promise<StatementRowRead[]> {
  return readStatement(readViews(db), filter.accountId, {
    since: filter.from,
    until: filter.to,
    eventTypes: filter.eventTypes,
    direction: filter.direction,
    afterSequence,
    limit,
  });
}

function toLine(row: StatementRowRead): StatementLine {
  return {
    sequence: String(row.sequence),
    position: String(row.position),
    recordedAt: row.recorded_at.toISOString(),
    eventType: row.event_type,
    streamId: row.stream_id,
    transactionId: row.transaction_id,
    counterpartyId: row.counterparty_id,
    counterpartyName: row.counterparty_name,
    amount: rupeesFromPaise(row.amount_paise),
    balanceAfter: rupeesFromPaise(row.balance_after_paise),
  };
}

export async function readStatementPage(
  db: Kysely<unknown>,
  filter: StatementFilter,
  page: PageRequest,
): Promise<StatementPage> {
  const rows = await statementRows(db, filter, page.after, page.limit + 1);
  const { items, next } = keysetPage(rows, page.limit, (row) => row.sequence, toLine);
  const { rows: info } = await sql<{ display_name: string | null; kind: string | null; balance_paise: bigint | null }>`
    select d.display_name, d.kind, b.balance_paise
      from (select ${filter.accountId}::text as account_id) a
      left join read.directory d on d.account_id = a.account_id
      left join read.balances b on b.account_id = a.account_id`.execute(db);
  const head = info[0];
  return {
    accountId: filter.accountId,
    displayName: head?.display_name ?? null,
    kind: head?.kind ?? null,
    balance:
      head?.balance_paise === null || head?.balance_paise === undefined ? null : rupeesFromPaise(head.balance_paise),
    items,
    nextAfter: next,
  };
}

export const CSV_COLUMNS = [
  'sequence',
  'position',
  'recorded_at',
  'event_type',
  'stream_id',
  'transaction_id',
  'counterparty_id',
  'counterparty_name',
  'amount_rupees',
  'balance_after_rupees',
] as const;

/**
 * One CSV text chunk per batch (csv-stringify's sync API on the batch's records): per-row
 * stream objects would cost several times the garbage, and the heap then grows with it.
 */
async function* statementCsvChunks(
  db: Kysely<unknown>,
  filter: StatementFilter,
  batchRows: number,
): AsyncGenerator<string> {
  yield stringify([[...CSV_COLUMNS]]);
  let after: bigint | undefined;
  for (;;) {
    const rows = await statementRows(db, filter, after, batchRows);
    if (rows.length > 0) {
      yield stringify(
        rows.map((row) => [
          String(row.sequence),
          String(row.position),
          row.recorded_at.toISOString(),
          row.event_type,
          spreadsheetSafe(row.stream_id),
          spreadsheetSafe(row.transaction_id),
          spreadsheetSafe(row.counterparty_id ?? ''),
          spreadsheetSafe(row.counterparty_name ?? ''),
          rupeesText(row.amount_paise),
          rupeesText(row.balance_after_paise),
        ]),
      );
    }
    if (rows.length < batchRows) return;
    after = rows.at(-1)?.sequence;
  }
}

/** The statement as CSV text, produced batch by batch as the reader consumes it (backpressure). */
export function statementCsv(db: Kysely<unknown>, filter: StatementFilter, batchRows = CSV_BATCH_ROWS): Readable {
  return Readable.from(statementCsvChunks(db, filter, batchRows), { objectMode: false, highWaterMark: 64 * 1024 });
}
