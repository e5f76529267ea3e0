/**
 * What the API and the audit tools read of projection "accounts": balances, display names
 * and statement lines with running balances.
 */
import { sql, type Kysely, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { LedgerEventType } from '../../ledger/index.ts';
import type { HistoryTables } from '../history/tables.ts';
import type { AccountsTables, BalanceRow, StatementLineRow } from './tables.ts';

/** The most statement lines one read returns (the admin's pages and CSV export page by sequence). */
export const MAX_STATEMENT_ROWS = 10_000;

export async function readWalletBalance(db: Kysely<AccountsTables>, accountId: string): Promise<bigint> {
  const row = await db
    .selectFrom('read.balances')
    .select('balance_paise')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row?.balance_paise ?? 0n;
}

export async function readBalances(db: Kysely<AccountsTables>): Promise<Selectable<BalanceRow>[]> {
  return db.selectFrom('read.balances').selectAll().orderBy('account_id').execute();
}

export interface StatementFilters {
  /** Recorded at or after. */
  since?: Date | undefined;
  /** Recorded before. */
  until?: Date | undefined;
  /** Event types to keep (e.g. TransferCompleted, DepositReversed); none given: every type. */
  eventTypes?: readonly LedgerEventType[] | undefined;
  /** Money in (a positive amount) or out. */
  direction?: 'credit' | 'debit' | undefined;
  /** Keyset paging: lines after this sequence (the last one of the previous page). */
  afterSequence?: bigint | undefined;
  limit?: number | undefined;
}

/**
 * The time index of statement lines holds an account's lines past this sequence only
 * (migration 0019, whose predicate is this literal): the first ones are read by the primary key.
 */
export const STATEMENT_LINES_TIMED_AFTER = 2_000;

/**
 * The account's lines in two parts, the first STATEMENT_LINES_TIMED_AFTER by sequence and the
 * rest, each with the predicate of the index that can serve it, so a date filter reaches a long
 * statement's lines through the time index (which holds the rest only) and a short one's through
 * the primary key; the filters on top are pushed into both parts, and the order by sequence
 * merges them.
 */
function statementLines(db: Kysely<AccountsTables>, accountId: string) {
  const part = (comparison: '<=' | '>') =>
    db
      .selectFrom('read.statement_lines')
      .selectAll()
      .where('account_id', '=', accountId)
      .where(sql<boolean>`sequence ${sql.raw(comparison)} ${sql.lit(STATEMENT_LINES_TIMED_AFTER)}`);
  return db.selectFrom(part('<=').unionAll(part('>')).as('s'));
}

/** The statement's rows for `filters`, in the running balance's order: the one filter both readers share. */
function filteredStatement(db: Kysely<AccountsTables>, accountId: string, filters: StatementFilters) {
  let query = statementLines(db, accountId);
  if (filters.afterSequence !== undefined) query = query.where('s.sequence', '>', filters.afterSequence);
  if (filters.since) query = query.where('s.recorded_at', '>=', filters.since);
  if (filters.until) query = query.where('s.recorded_at', '<', filters.until);
  if (filters.eventTypes && filters.eventTypes.length > 0)
    query = query.where('s.event_type', 'in', [...filters.eventTypes]);
  // Postings are never zero (ledger.postings checks amount <> 0): every line is one or the other.
  if (filters.direction) query = query.where('s.amount_paise', filters.direction === 'credit' ? '>' : '<', 0n);
  const limit = Math.min(filters.limit ?? MAX_STATEMENT_ROWS, MAX_STATEMENT_ROWS);
  return query.orderBy('s.sequence').limit(limit);
}

/**
 * Every posting of the account with its running balance, in the running balance's order
 * (for audit: the admin's statement pages and CSV export read through here).
 */
export async function readStatement(
  db: Kysely<AccountsTables>,
  accountId: string,
  filters: StatementFilters = {},
): Promise<Selectable<StatementLineRow>[]> {
  return filteredStatement(db, accountId, filters).selectAll('s').execute();
}

export type StatementLineWithReference = Selectable<StatementLineRow> & {
  /** The payer's note or the deposit's reference (history's), null where the history has no row. */
  reference: string | null;
  /** When history's row was made, the time the history shows: for a deposit, when it was requested. */
  history_created_at: Date | null;
};

/**
 * readStatement's lines with the reference the user typed, for the statements people read.
 * read.statement_lines does not carry it; read.history does, one row per (account, stream,
 * position) - its primary key, so each line's lookup is one index probe. A deposit's money
 * lands with DepositSettled but its history row is the request's ('deposit', at the request's
 * position): the one 'deposit' row of that stream. A line whose history row is not there
 * (a funding account's, or history behind the accounts projection for a moment) has none.
 */
export async function readStatementWithReferences(
  // history's table too: the join stays in this one statement (one index probe a line, on the statement's read).
  db: Kysely<AccountsTables> & Kysely<HistoryTables>,
  accountId: string,
  filters: StatementFilters = {},
): Promise<StatementLineWithReference[]> {
  return alsoHistory(filteredStatement(db, accountId, filters))
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('read.history as h')
          .select(['h.reference', 'h.created_at as history_created_at'])
          .whereRef('h.account_id', '=', 's.account_id')
          .whereRef('h.stream_id', '=', 's.stream_id')
          .where((where) =>
            where.or([
              where('h.position', '=', where.ref('s.position')),
              where.and([where('s.event_type', '=', 'DepositSettled'), where('h.type', '=', 'deposit')]),
            ]),
          )
          .orderBy('h.position')
          .limit(1)
          .as('h'),
      (join) => join.onTrue(),
    )
    .selectAll('s')
    .select(['h.reference', 'h.history_created_at'])
    .execute();
}

/** `query` able to join history's table: its caller's Kysely has it (Kysely's types are invariant in the tables). */
function alsoHistory<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB & HistoryTables, TB, O> {
  return query as unknown as SelectQueryBuilder<DB & HistoryTables, TB, O>;
}

export async function readDisplayName(db: Kysely<AccountsTables>, accountId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('read.directory')
    .select('display_name')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row?.display_name;
}
