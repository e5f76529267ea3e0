/**
 * What the API reads of projection "history": a user's page of transactions, by type or by
 * a search of the reference and transaction id, with the total the page is out of.
 */
import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import { searchedAmountPaise } from '../../contracts/amount-input.ts';
import type { HistoryRow, HistoryTables, HistoryType } from './tables.ts';

/** Pages are small and fixed by the UI; a caller cannot ask for unbounded pages. */
export const HISTORY_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

export interface HistoryQuery {
  accountId: string;
  /**
   * Matches what a row shows: the text anywhere in the reference or the counterparty's name,
   * the amount when the text is one ("4,000.50", "₹4000.5"), or the transaction id from its
   * start or at its end, case-insensitively.
   */
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
  /** Tests: smaller SEARCH_HEAD_ROWS and SEARCH_LOOKUP_ROWS, so small histories take every way a search can. */
  searchHeadRows?: number | undefined;
  searchLookupRows?: number | undefined;
}

export interface HistoryPage {
  rows: Selectable<HistoryRow>[];
  /** The rows matching, or for a search with more than SEARCH_COUNT_LIMIT matches, that limit. */
  total: number;
  /** False when `total` is a lower bound (a search with more matches than it counts). */
  totalExact: boolean;
  /** How a search found its matches (searchHistory); absent when nothing was searched. */
  searchWay?: SearchWay | undefined;
}

/** See searchHistory: the newest rows sufficed, a walk of the index, or a trigram lookup. */
export type SearchWay = 'head' | 'walk' | 'keys';

/** `text` backwards (by code point), to match an id's end through the index on its reverse. */
function reversed(text: string): string {
  return [...text].reverse().join('');
}

/**
 * What a transaction id never holds: ids are tokens (the server mints UUIDv7, platform/ids.ts),
 * so a text with a space, a rupee sign or a comma - a name, a phrase, an amount as typed - is
 * never part of one, and the id is not tested for it.
 */
const ID_NEVER_HOLDS = /[\s₹,]/u;

/** `text` with LIKE's wildcards and escape character taken literally. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

export async function readHistoryPage(db: Kysely<HistoryTables>, query: HistoryQuery): Promise<HistoryPage> {
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
      text: search,
      referencePattern: `%${likeLiteral(search)}%`,
      amountPaise: searchedAmountPaise(search),
      transactionIdPrefix: `${likeLiteral(search.toLowerCase())}%`,
      transactionIdTail: `${likeLiteral(reversed(search.toLowerCase()))}%`,
      transactionIdEnd: `%${likeLiteral(search.toLowerCase())}`,
      mayBeInId: !ID_NEVER_HOLDS.test(search),
      pageSize,
      offset,
      countLimit: query.searchCountLimit ?? SEARCH_COUNT_LIMIT,
      headRows: query.searchHeadRows ?? SEARCH_HEAD_ROWS,
      lookupRows: query.searchLookupRows ?? SEARCH_LOOKUP_ROWS,
    });
  const dated = query.since !== undefined || query.until !== undefined;
  // The total and the page from one snapshot, so they agree while the projector writes.
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const counts = await countHistory(trx, query.accountId, query.type);
      const filtered = filteredHistory(trx, query, counts.indexed);
      // A date range is counted over its own stretch of the account's newest-first (or by-type)
      // index, an index-only scan of just those rows; without one, the kept counts answer.
      const total = dated
        ? Number((await filtered.select((eb) => eb.fn.countAll<bigint>().as('n')).executeTakeFirstOrThrow()).n)
        : counts.rows;
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

/**
 * The account's rows, of one type and within the dates if asked. `indexed`: the account has
 * more rows than the bound, so all of them are keyed; for rows of one type saying so lets the
 * planner use the by-type index, which holds keyed rows only (migration 0018). A shorter
 * history's rows of a type are filtered from its rows, at most the bound's. Rows of every
 * type are read from the newest-first index, which has no `keyed`:
 * naming it there would cost a heap visit per entry stepped over (B5's page p50 doubled).
 */
function filteredHistory(db: Kysely<HistoryTables>, query: HistoryQuery, indexed: boolean) {
  let filtered = db.selectFrom('read.history').where('account_id', '=', query.accountId);
  if (query.type) filtered = filtered.where('type', '=', query.type);
  if (query.type && indexed) filtered = filtered.where(sql<boolean>`keyed`);
  if (query.since) filtered = filtered.where('created_at', '>=', query.since);
  if (query.until) filtered = filtered.where('created_at', '<', query.until);
  return filtered;
}

interface HistoryCounts {
  /** The account's rows (of the type asked for). */
  rows: number;
  /** Whether all of the account's rows are keyed: it has more than `read.history_keys_after_rows()`, and none waits. */
  indexed: boolean;
}

/**
 * One row from the counts the projection keeps: the account's rows (of `type`, if given), and
 * whether all of them are keyed: it has more than `read.history_keys_after_rows()`, and its
 * earlier rows do not wait to be keyed after the round that passed the bound (read.history_keying).
 * A statement of its own, or a subquery of a larger one.
 */
export function historyCountsOf(accountId: string, type?: HistoryType): RawBuilder<{ rows: string; indexed: boolean }> {
  return sql`select coalesce(sum(rows) ${type ? sql`filter (where type = ${type})` : sql``}, 0) as rows,
                    coalesce(sum(rows), 0) > read.history_keys_after_rows()
                      and not exists (select from read.history_keying k where k.account_id = ${accountId}) as indexed
               from read.history_counts where account_id = ${accountId}`;
}

/** The account's history rows (of one type), from the counts the projection keeps with them. */
async function countHistory(
  db: Kysely<HistoryTables>,
  accountId: string,
  type: HistoryType | undefined,
): Promise<HistoryCounts> {
  const { rows } = await historyCountsOf(accountId, type).execute(db);
  const [counts] = rows;
  return { rows: Number(counts?.rows ?? 0), indexed: counts?.indexed ?? false };
}

interface SearchQuery {
  accountId: string;
  type: HistoryType | undefined;
  since: Date | undefined;
  until: Date | undefined;
  /** The words searched for, as typed (trimmed): their trigrams find candidate rows. */
  text: string;
  /** ILIKE pattern: the text anywhere in the reference or the counterparty's name. */
  referencePattern: string;
  /** The amount the text names, if it is one: rows of that amount match too. */
  amountPaise: bigint | null;
  /** LIKE pattern over lower(transaction_id): the lower-cased text at its start. */
  transactionIdPrefix: string;
  /**
   * LIKE pattern over reverse(lower(transaction_id)): the text at the id's end. Ids of money
   * movements are UUIDv7 (platform/ids.ts), whose first characters are the time, so the app
   * shows and people copy their random tail.
   */
  transactionIdTail: string;
  /** LIKE pattern over lower(transaction_id): the text at its end (transactionIdTail's test, without the index). */
  transactionIdEnd: string;
  /** False when the text holds what no transaction id does (see ID_NEVER_HOLDS): the id is not tested. */
  mayBeInId: boolean;
  pageSize: number;
  offset: number;
  countLimit: number;
  /** SEARCH_HEAD_ROWS and SEARCH_LOOKUP_ROWS, or smaller in tests. */
  headRows: number;
  lookupRows: number;
}

/**
 * A search's total is exact up to this many matches; beyond, the page says "of 500+" (an exact
 * count of tens of thousands of matches costs a scan of all of them on every page). 50 pages of
 * 10: past them people narrow the words or the dates. 1,000 cost B5's search p99 21 ms, 500
 * halves the walk of a common word (bench/RESULTS.md, the 14:50 entry).
 */
export const SEARCH_COUNT_LIMIT = 500;

/**
 * How many of the user's newest rows a search reads first (cheap: the newest-first index
 * carries what a search tests): enough to find the first 501 matches of a common word, or to
 * tell a rare one, or the whole history of most users.
 */
export const SEARCH_HEAD_ROWS = 2_000;

/**
 * At most this many rows are fetched by a trigram lookup (each from the heap, then sorted); a
 * lookup that finds more walks instead (matches are common after all, only not
 * among the newest rows).
 */
export const SEARCH_LOOKUP_ROWS = 2_000;

/**
 * Walk on, or look the trigrams up? With a share `d` of matches among the head's rows and `n`
 * rows in all, walking to the 501st match reads ~501/d index entries and the trigram lookup
 * fetches ~d*n rows from the heap and sorts them, each about eight times an index entry's cost
 * (measured: bench/RESULTS.md, History search): walk when d^2 * n >= 501 / 8 ~ 63 (for 100,000
 * rows: when more than ~2.5% match).
 */
const WALK_WHEN_SHARE_SQUARED_TIMES_ROWS = Math.round((SEARCH_COUNT_LIMIT + 1) / 8);

/**
 * One statement per search; its newest SEARCH_COUNT_LIMIT + 1 matches, collected once
 * (materialized), give both the page and the total. How they are found depends on what the
 * head (the user's newest SEARCH_HEAD_ROWS rows, read first) shows:
 * - 'head': the head holds 501 matches, or all of the user's rows - they are the answer;
 * - 'walk': matches are common - the head's and on down the newest-first index from the head's
 *   last row until 501 are found;
 * - 'keys': matches are rare, and the user has more rows than `read.history_keys_after_rows()`
 *   (2,000; a shorter history is not in the search index, and walks) - the trigrams of the
 *   reference and the name, and the amount's key, among this user's rows only (`read.history_search_keys`,
 *   projections/history/search-keys.sql) or the id's prefix B-tree give the candidates, then
 *   sorted; more than SEARCH_LOOKUP_ROWS of them, and it walks instead. A text with no three
 *   letters or digits in a row has no trigrams to look up, and walks - unless it names an
 *   amount ("38.63", "₹5"): then the amount's key and the id's B-trees find its matches in the
 *   whole history, and the head's matches are added, so such a text is found in a note or a
 *   name among the newest SEARCH_HEAD_ROWS rows only (walking the whole history for that
 *   cost a search of 100,000 rows ~180 ms: bench/RESULTS.md, 13:45 entry).
 * The planner cannot make this choice itself: it estimates a match's likelihood from all
 * users' rows and multiplies the trigrams' likelihoods as if independent (it took 20,000
 * matches for 227 and fetched them all from the heap). Ways not taken are not run (each is
 * gated by a one-time filter). A page past the count limit walks the user's matches newest
 * first (the total stays "500+").
 */
async function searchHistory(db: Kysely<HistoryTables>, query: SearchQuery): Promise<HistoryPage> {
  const { accountId, type, pageSize, offset, countLimit, headRows, lookupRows } = query;
  // A search of one type reads the by-type index, which holds keyed rows only: for a long history
  // (all its rows keyed, and they stay so) the filters say `keyed`. One more read, of the counts.
  const byTypeIndexed = type !== undefined && (await countHistory(db, accountId, undefined)).indexed;
  const { filters, lookupFilters, isMatch, isKeyed, hasKeys } = searchConditions(query, byTypeIndexed);
  const newestFirst = sql`order by created_at desc, position desc`;
  const walk = sql`select stream_id, created_at, position from read.history where ${filters} and ${isMatch}`;
  const pageSource = offset + pageSize > countLimit ? sql`(${walk} ${newestFirst})` : sql`matches`;
  const chosen = sql`(select way from chosen)`;
  const { rows } = await sql<Selectable<HistoryRow> & { matched: bigint; way: SearchWay }>`
    with head as materialized (
      select stream_id, created_at, position, ${isMatch} as hit
        from read.history where ${filters} ${newestFirst} limit ${headRows}
    ),
    way as materialized (
      select case
               when hits > ${countLimit} or seen < ${headRows} then 'head'
               when not keyed or not indexed
                 or hits * hits * rows >= ${WALK_WHEN_SHARE_SQUARED_TIMES_ROWS}::numeric * seen * seen then 'walk'
               else 'keys'
             end as way
        from (select count(*) filter (where hit) as hits, count(*) as seen, ${hasKeys} as keyed
                from head) as probe,
             (${historyCountsOf(accountId, type)}) as counted
    ),
    keyed as materialized (
      select stream_id, created_at, position from read.history
       where ${lookupFilters} and ${isKeyed} limit ${lookupRows + 1}
    ),
    chosen as materialized (
      select case when way = 'keys' and (select count(*) from keyed) > ${lookupRows} then 'walk' else way end as way
        from way
    ),
    matches as materialized (
      select stream_id, created_at, position from (
        (select stream_id, created_at, position from head
          where hit and ${chosen} in ('head', 'walk') ${newestFirst} limit ${countLimit + 1})
        union all
        (${walk} and ${chosen} = 'walk'
            and (created_at, position) < (select created_at, position from head order by created_at, position limit 1)
          ${newestFirst} limit ${countLimit + 1})
        union all
        (select stream_id, created_at, position from (
           select stream_id, created_at, position from keyed where ${chosen} = 'keys'
           union
           select stream_id, created_at, position from head where hit and ${chosen} = 'keys'
         ) as looked_up ${newestFirst} limit ${countLimit + 1})
      ) as found ${newestFirst} limit ${countLimit + 1}
    ),
    page as (
      select stream_id, created_at, position from ${pageSource} as source
       ${newestFirst} limit ${pageSize} offset ${offset}
    )
    select (select count(*) from matches) as matched,
           ${chosen} as way,
           row.*
      from (select 1) as one
      left join (page join read.history as row
                   on row.account_id = ${accountId} and row.stream_id = page.stream_id and row.position = page.position)
        on true
     order by page.created_at desc, page.position desc`.execute(db);
  return searchPage(rows, countLimit);
}

/** The SQL conditions of a search, each the same in every way the search can take. */
interface SearchConditions {
  /** The user's rows of the type and dates asked for. */
  filters: RawBuilder<unknown>;
  /** The same, for the keys way's lookup: its type test is one no index answers (see below). */
  lookupFilters: RawBuilder<unknown>;
  /** The row matches the text: words, amount or transaction id. */
  isMatch: RawBuilder<unknown>;
  /** The row matches, found through the search keys' index or the id's (the 'keys' way). */
  isKeyed: RawBuilder<unknown>;
  /** Whether the keys can find the matches: the text has trigrams, or it names an amount. */
  hasKeys: RawBuilder<unknown>;
}

function searchConditions(query: SearchQuery, keyedOnly: boolean): SearchConditions {
  const { accountId, type, since, until, text, amountPaise } = query;
  const rest = sql`${keyedOnly ? sql`and keyed` : sql``}
       ${since ? sql`and created_at >= ${since}` : sql``} ${until ? sql`and created_at < ${until}` : sql``}`;
  const filters = sql`account_id = ${accountId} ${type ? sql`and type = ${type}` : sql``} ${rest}`;
  // The keys way must find its candidates through the keys' indexes. Given `type = $1`, the
  // planner read every row of the type through history_by_type and tested the keys on each (a
  // typed search of a rare word: 16 ms on 3,000 rows of the type against 0.4 ms, and growing
  // with the history); `coalesce(type, '')` is the same test on a non-null column that no
  // index answers.
  //
  // Nor may it read the user's rows through a B-tree on the account and test the keys on each:
  // with `account_id = $1` as a test of its own, the planner could (a typed search: 33 ms against
  // 0.4 ms, seen once in a clean-clone run, decision 0026). Compared under "C" - the same
  // equality, the collation being deterministic - no index on the account answers it; the id
  // arms below name the account for their own B-trees, and the search keys hold it already.
  const lookupFilters = sql`account_id collate "C" = ${accountId} ${type ? sql`and coalesce(type, '') = ${type}` : sql``} ${rest}`;
  // Two forms of one test. The keys way's reads the ids' B-trees (their expressions; both hold
  // keyed rows only, all of a user's the keys way is taken for); a row
  // read anyway (the head, the walk) is tested by the cheaper one: lower() once, and LIKE of
  // lower() being what ILIKE does in a multibyte encoding without lowering the pattern per row.
  // Together ~40% of a head's cost (bench/RESULTS.md, the 13:45 entry).
  const isIdMatch = query.mayBeInId
    ? sql`((keyed and account_id = ${accountId} and lower(transaction_id) like ${query.transactionIdPrefix})
           or (keyed and account_id = ${accountId} and reverse(lower(transaction_id)) like ${query.transactionIdTail}))`
    : sql`false`;
  const isInId = query.mayBeInId
    ? sql`lower(transaction_id) like any (array[${query.transactionIdPrefix}, ${query.transactionIdEnd}])`
    : sql`false`;
  const lowerPattern = sql`lower(${query.referencePattern})`;
  const inWords = sql`(lower(reference) like ${lowerPattern} or lower(counterparty_name) like ${lowerPattern})`;
  const isAmount = amountPaise === null ? sql`false` : sql`amount_paise = ${amountPaise}`;
  const isMatch = sql`(${inWords} or ${isAmount} or ${isInId})`;
  // The same expression as the index history_search_keys (migration 0004), so the planner uses it.
  const rowKeys = sql`read.history_search_keys(account_id, reference, counterparty_name, amount_paise)`;
  const textKeys = sql`read.search_text_keys(${accountId}, ${text})`;
  // The words' keys only for a text with trigrams ("@> '{}'" would read the whole index; the
  // planner folds the text's keys, a constant, so the condition goes when they are empty). An
  // amount's key finds the rows of that amount beside the rows the words find.
  const hasTextKeys = sql`cardinality(${textKeys}) > 0`;
  const amountKeyed =
    amountPaise === null
      ? sql`false`
      : sql`(${rowKeys} @> read.amount_search_key(${accountId}, ${amountPaise}::bigint) and ${isAmount})`;
  // `keyed`: the search index holds only keyed rows (migration 0017); the way is 'keys' only
  // for a user whose rows all are.
  const isKeyed = sql`((keyed and ${hasTextKeys} and ${rowKeys} @> ${textKeys} and ${inWords})
       or (keyed and ${amountKeyed}) or ${isIdMatch})`;
  const hasKeys = amountPaise === null ? hasTextKeys : sql`true`;
  return { filters, lookupFilters, isMatch, isKeyed, hasKeys };
}

/** The page from the statement's rows: each carries the count and the way (an empty page: one row of nulls besides). */
function searchPage(
  rows: readonly (Selectable<HistoryRow> & { matched: bigint; way: SearchWay })[],
  countLimit: number,
): HistoryPage {
  const matched = Number(rows[0]?.matched ?? 0n);
  const found = rows.filter((row) => row.account_id !== null).map(({ matched: _matched, way: _way, ...row }) => row);
  return {
    rows: found,
    total: Math.min(matched, countLimit),
    totalExact: matched <= countLimit,
    searchWay: rows[0]?.way,
  };
}

/** A payee of the user's own payments, newest first (issue 43: one tap fills the payee). */
export interface RecentPayee {
  accountId: string;
  /** The name the newest payment to them was recorded with. */
  name: string;
  lastPaidAt: Date;
}

/**
 * How many of the user's newest outgoing rows are read to find recent payees: a bound on the
 * work of one call, whatever the history's length. A payee last paid before these is not recent.
 */
export const RECENT_PAYEES_SCAN_ROWS = 200;

/**
 * The distinct people the user paid most recently (transfers and accepted money requests;
 * never reversals or deposits), up to `limit`. Reads the newest outgoing rows through the
 * newest-first index, then groups them by payee.
 */
export async function readRecentPayees(
  db: Kysely<HistoryTables>,
  query: { accountId: string; limit: number },
): Promise<RecentPayee[]> {
  const { rows } = await sql<{ counterparty_id: string; counterparty_name: string; last_paid_at: Date }>`
    select counterparty_id,
           (array_agg(counterparty_name order by created_at desc, position desc))[1] as counterparty_name,
           max(created_at) as last_paid_at
      from (select counterparty_id, counterparty_name, created_at, position, method
              from read.history
             where account_id = ${query.accountId} and type = 'debit'
             order by created_at desc, position desc
             limit ${RECENT_PAYEES_SCAN_ROWS}) as outgoing
     where method in ('transfer', 'request')
     group by counterparty_id
     order by max(created_at) desc, counterparty_id
     limit ${query.limit}`.execute(db);
  return rows.map((row) => ({
    accountId: row.counterparty_id,
    name: row.counterparty_name,
    lastPaidAt: row.last_paid_at,
  }));
}
