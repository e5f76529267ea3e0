/**
 * What the API reads: balances, history pages, money requests and statements, all from
 * the read tables. Pair with waitForCheckpoint (./wait.ts) for read-your-writes.
 */
import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import type {
  BalanceRow,
  CheckpointRow,
  HistoryRow,
  HistoryType,
  MoneyRequestRow,
  ReadTables,
  StatementRow,
} from './tables.ts';

/** Pages are small and fixed by the UI; a caller cannot ask for unbounded pages. */
export const HISTORY_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;
export const MAX_STATEMENT_ROWS = 10_000;

export async function readWalletBalance(db: Kysely<ReadTables>, accountId: string): Promise<bigint> {
  const row = await db
    .selectFrom('read.balances')
    .select('balance_paise')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row?.balance_paise ?? 0n;
}

export async function readBalances(db: Kysely<ReadTables>): Promise<Selectable<BalanceRow>[]> {
  return db.selectFrom('read.balances').selectAll().orderBy('account_id').execute();
}

export interface HistoryQuery {
  accountId: string;
  /** Matches the reference text or the transaction id, case-insensitively, anywhere in it. */
  search?: string | undefined;
  type?: HistoryType | undefined;
  /** 1-based. */
  page: number;
  pageSize?: number | undefined;
}

export interface HistoryPage {
  rows: Selectable<HistoryRow>[];
  total: number;
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

export async function readHistoryPage(db: Kysely<ReadTables>, query: HistoryQuery): Promise<HistoryPage> {
  const pageSize = Math.min(Math.max(1, query.pageSize ?? HISTORY_PAGE_SIZE), MAX_PAGE_SIZE);
  const page = Math.max(1, Math.floor(query.page));
  let filtered = db.selectFrom('read.history').where('account_id', '=', query.accountId);
  if (query.type) filtered = filtered.where('type', '=', query.type);
  const search = query.search?.trim();
  if (search) {
    const pattern = likePattern(search);
    filtered = filtered.where((eb) =>
      eb.or([eb('reference', 'ilike', pattern), eb('transaction_id', 'ilike', pattern)]),
    );
  }
  const offset = (page - 1) * pageSize;
  if (search) return searchHistory(db, query.accountId, filtered, pageSize, offset);
  // The total and the page from one snapshot, so they agree while the projector writes.
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const total = await countHistory(trx, query.accountId, query.type);
      if (offset >= total) return { rows: [], total };
      // The page's keys (the primary key: account, stream, position) first, by an index-only
      // scan; an OFFSET still steps over every entry before the page, so a page past the middle
      // is counted from the oldest end (the last page of 100,000 rows costs what the first does).
      const fromOldest = offset > total / 2;
      const direction = fromOldest ? 'asc' : 'desc';
      const keys = filtered
        .select(['stream_id', 'created_at', 'position'])
        .orderBy('created_at', direction)
        .orderBy('position', direction)
        .limit(fromOldest ? Math.min(pageSize, total - offset) : pageSize)
        .offset(fromOldest ? Math.max(0, total - offset - pageSize) : offset);
      const rows = await trx
        .selectFrom(keys.as('page'))
        .innerJoin('read.history as row', (join) =>
          join
            .on('row.account_id', '=', query.accountId)
            .onRef('row.stream_id', '=', 'page.stream_id')
            .onRef('row.position', '=', 'page.position'),
        )
        .selectAll('row')
        .orderBy('page.created_at', 'desc')
        .orderBy('page.position', 'desc')
        .execute();
      return { rows, total };
    });
}

/** The account's history rows (of one type), from the counts the projection keeps with them. */
async function countHistory(db: Kysely<ReadTables>, accountId: string, type: HistoryType | undefined): Promise<number> {
  let counts = db
    .selectFrom('read.history_counts')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<bigint>('rows'), eb.lit(0)).as('total'))
    .where('account_id', '=', accountId);
  if (type) counts = counts.where('type', '=', type);
  const row = await counts.executeTakeFirstOrThrow();
  return Number(row.total);
}

type HistoryFilter = SelectQueryBuilder<ReadTables, 'read.history', object>;

/**
 * A search page is taken from the user's matches collected first (trigram indexes,
 * materialized), never by walking the user's history newest first and filtering row by
 * row: the planner chose that when it expected many matches and found few (170 ms at
 * 100,000 rows instead of 8 ms). The total is counted alongside, on another connection.
 */
async function searchHistory(
  db: Kysely<ReadTables>,
  accountId: string,
  filtered: HistoryFilter,
  pageSize: number,
  offset: number,
): Promise<HistoryPage> {
  const [rows, count] = await Promise.all([
    db
      .with(
        (wb) => wb('matches').materialized(),
        () => filtered.select(['stream_id', 'created_at', 'position']),
      )
      .selectFrom((eb) =>
        eb
          .selectFrom('matches')
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('position', 'desc')
          .limit(pageSize)
          .offset(offset)
          .as('page'),
      )
      .innerJoin('read.history as row', (join) =>
        join
          .on('row.account_id', '=', accountId)
          .onRef('row.stream_id', '=', 'page.stream_id')
          .onRef('row.position', '=', 'page.position'),
      )
      .selectAll('row')
      .orderBy('page.created_at', 'desc')
      .orderBy('page.position', 'desc')
      .execute(),
    filtered.select((eb) => eb.fn.countAll<bigint>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export interface MoneyRequestLists {
  sent: Selectable<MoneyRequestRow>[];
  received: Selectable<MoneyRequestRow>[];
}

/** Sent = the account asked for money; received = the account was asked. Newest first. */
export async function readMoneyRequests(db: Kysely<ReadTables>, accountId: string): Promise<MoneyRequestLists> {
  const [sent, received] = await Promise.all([
    db
      .selectFrom('read.money_requests')
      .selectAll()
      .where('requester_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .orderBy('position', 'desc')
      .execute(),
    db
      .selectFrom('read.money_requests')
      .selectAll()
      .where('payer_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .orderBy('position', 'desc')
      .execute(),
  ]);
  return { sent, received };
}

export interface StatementFilters {
  /** Recorded at or after. */
  since?: Date | undefined;
  /** Recorded before. */
  until?: Date | undefined;
  /** Event types to keep (e.g. TransferCompleted, DepositReversed); none given: every type. */
  eventTypes?: readonly string[] | undefined;
  /** Money in (a positive amount) or out. */
  direction?: 'credit' | 'debit' | undefined;
  /** Keyset paging: lines after this sequence (the last one of the previous page). */
  afterSequence?: bigint | undefined;
  limit?: number | undefined;
}

/**
 * Every posting of the account with its running balance, in the running balance's order
 * (for audit: the admin's statement pages and CSV export read through here).
 */
export async function readStatement(
  db: Kysely<ReadTables>,
  accountId: string,
  filters: StatementFilters = {},
): Promise<Selectable<StatementRow>[]> {
  let query = db.selectFrom('read.statements').selectAll().where('account_id', '=', accountId);
  if (filters.afterSequence !== undefined) query = query.where('sequence', '>', filters.afterSequence);
  if (filters.since) query = query.where('recorded_at', '>=', filters.since);
  if (filters.until) query = query.where('recorded_at', '<', filters.until);
  if (filters.eventTypes && filters.eventTypes.length > 0)
    query = query.where('event_type', 'in', [...filters.eventTypes]);
  // Postings are never zero (ledger.postings checks amount <> 0): every line is one or the other.
  if (filters.direction) query = query.where('amount_paise', filters.direction === 'credit' ? '>' : '<', 0n);
  const limit = Math.min(filters.limit ?? MAX_STATEMENT_ROWS, MAX_STATEMENT_ROWS);
  return query.orderBy('sequence').limit(limit).execute();
}

export async function readDisplayName(db: Kysely<ReadTables>, accountId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('read.directory')
    .select('display_name')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row?.display_name;
}

export async function readProjectionCheckpoints(db: Kysely<ReadTables>): Promise<Selectable<CheckpointRow>[]> {
  return db.selectFrom('read.checkpoints').selectAll().orderBy('projection').execute();
}
