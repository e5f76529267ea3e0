/**
 * What the API reads of projection "history": a user's page of transactions, by type or by
 * a search of the reference and transaction id, with the total the page is out of.
 */
import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import type { ReadTables } from '../tables.ts';
import type { HistoryRow, HistoryType } from './tables.ts';

/** Pages are small and fixed by the UI; a caller cannot ask for unbounded pages. */
export const HISTORY_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

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
