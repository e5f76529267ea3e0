/**
 * What the API reads of projection "history": a user's page of transactions, by type or by
 * a search of the reference and transaction id, with the total the page is out of.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
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
  /** Created at or after (the start of the first day of a date filter). */
  since?: Date | undefined;
  /** Created before (the start of the day after a date filter's last). */
  until?: Date | undefined;
  /** 1-based. */
  page: number;
  pageSize?: number | undefined;
  /** Tests: a smaller SEARCH_COUNT_LIMIT. */
  searchCountLimit?: number | undefined;
}

export interface HistoryPage {
  rows: Selectable<HistoryRow>[];
  /** The rows matching, or for a search with more than SEARCH_COUNT_LIMIT matches, that limit. */
  total: number;
  /** False when `total` is a lower bound (a search with more matches than it counts). */
  totalExact: boolean;
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

export async function readHistoryPage(db: Kysely<ReadTables>, query: HistoryQuery): Promise<HistoryPage> {
  const pageSize = Math.min(Math.max(1, query.pageSize ?? HISTORY_PAGE_SIZE), MAX_PAGE_SIZE);
  const page = Math.max(1, Math.floor(query.page));
  const offset = (page - 1) * pageSize;
  const search = query.search?.trim();
  if (search)
    return searchHistory(db, {
      accountId: query.accountId,
      type: query.type,
      since: query.since,
      until: query.until,
      pattern: likePattern(search),
      pageSize,
      offset,
      countLimit: query.searchCountLimit ?? SEARCH_COUNT_LIMIT,
    });
  const filtered = filteredHistory(db, query);
  const dated = query.since !== undefined || query.until !== undefined;
  // The total and the page from one snapshot, so they agree while the projector writes.
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      // A date range is counted over its own stretch of the account's newest-first (or by-type)
      // index, an index-only scan of just those rows; without one, the kept counts answer.
      const total = dated
        ? Number(
            (
              await filteredHistory(trx, query)
                .select((eb) => eb.fn.countAll<bigint>().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          )
        : await countHistory(trx, query.accountId, query.type);
      if (offset >= total) return { rows: [], total, totalExact: true };
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
      return { rows, total, totalExact: true };
    });
}

/** The account's rows, of one type and within the dates if asked. */
function filteredHistory(db: Kysely<ReadTables>, query: HistoryQuery) {
  let filtered = db.selectFrom('read.history').where('account_id', '=', query.accountId);
  if (query.type) filtered = filtered.where('type', '=', query.type);
  if (query.since) filtered = filtered.where('created_at', '>=', query.since);
  if (query.until) filtered = filtered.where('created_at', '<', query.until);
  return filtered;
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

interface SearchQuery {
  accountId: string;
  type: HistoryType | undefined;
  since: Date | undefined;
  until: Date | undefined;
  pattern: string;
  pageSize: number;
  offset: number;
  countLimit: number;
}

/**
 * A search's total is exact up to this many matches; beyond, the page says "of 1,000+" (an
 * exact count of tens of thousands of matches costs a scan of all of them on every page).
 */
export const SEARCH_COUNT_LIMIT = 1_000;

/**
 * One scan per search: the user's newest SEARCH_COUNT_LIMIT + 1 matches, collected once
 * (materialized), give both the page and the total. Ordered and limited, the planner walks
 * the newest-first index when matches are many (it stops after the limit) and takes the
 * trigram indexes when they are few (a bitmap of a handful of rows, then sorted); unordered,
 * it chose the walk expecting many matches and found few (170 ms at 100,000 rows instead of
 * 8 ms). A page past the limit walks the user's matches newest first (the total stays "1,000+").
 */
async function searchHistory(db: Kysely<ReadTables>, query: SearchQuery): Promise<HistoryPage> {
  const { accountId, type, since, until, pattern, pageSize, offset, countLimit } = query;
  const matching = sql`
    select stream_id, created_at, position from read.history
     where account_id = ${accountId} ${type ? sql`and type = ${type}` : sql``}
       ${since ? sql`and created_at >= ${since}` : sql``} ${until ? sql`and created_at < ${until}` : sql``}
       and (reference ilike ${pattern} or transaction_id ilike ${pattern})
     order by created_at desc, position desc`;
  const pageSource = offset + pageSize > countLimit ? sql`(${matching})` : sql`matches`;
  const { rows } = await sql<Selectable<HistoryRow> & { matched: bigint }>`
    with matches as materialized (${matching} limit ${countLimit + 1}),
    page as (
      select stream_id, created_at, position from ${pageSource} as source
       order by created_at desc, position desc limit ${pageSize} offset ${offset}
    )
    select (select count(*) from matches) as matched, row.*
      from (select 1) as one
      left join (page join read.history as row
                   on row.account_id = ${accountId} and row.stream_id = page.stream_id and row.position = page.position)
        on true
     order by page.created_at desc, page.position desc`.execute(db);
  const matched = Number(rows[0]?.matched ?? 0n);
  const found = rows.filter((row) => row.account_id !== null).map(({ matched: _matched, ...row }) => row);
  return { rows: found, total: Math.min(matched, countLimit), totalExact: matched <= countLimit };
}
