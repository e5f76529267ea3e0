/**
 * History search at the database's speed (issue 17, target: search p99 <= 20 ms under writes).
 *
 * Measured on a history of 1.7 M rows, 100,000 of them one user's, with transfers flowing
 * (bench B5; ARCHITECTURE.md, Performance, "History search"):
 * - A search matching few rows took the trigram GIN indexes on (account_id, reference) and
 *   (account_id, transaction_id), 13-24 ms. Two costs: their pending lists (up to 4 MB, ~12,000
 *   rows' trigrams not yet merged, which every search reads in full; merged, the same search took
 *   0.3 ms), and a phrase common among other users but not this one's (10% of all rows say
 *   "birthday gift"): the account's 100,000 entries intersected with the phrase's 170,000.
 * - Merging the transaction-id index's pending list cost 40-85 us a row: a UUID's ~34 trigrams
 *   are random, so every row touches ~34 posting trees all over a 187 MB index (whose build was
 *   also 10.7 s of a replay's 56 s).
 * - A search matching many rows walks the newest-first index, and visited the heap for every
 *   entry (~6,600 heap pages to collect 1,001 matches of a common word).
 *
 * So:
 * - `read.search_keys(account_id, reference)`: the reference's trigrams, each keyed by its
 *   account (a 64-bit hash of both), in one GIN index. A search's trigrams are looked up among
 *   its user's rows only: a phrase the user never used is 25 index pages, whoever else did.
 *   A hash collision only adds candidates that the query's own ILIKE and account filter drop.
 *   A search text's keys (`read.search_text_keys`) are only the trigrams inside its words: the
 *   text is matched anywhere inside a reference, so only those are sure to be the reference's
 *   too (pg_trgm's padded trigrams at word ends are not; outside ASCII they are shown hashed,
 *   so they are found by what the text's one- and two-character pieces yield). A reference's
 *   keys leave out the padded trigrams that show a space (the rest are harmless extras). The
 *   index's pending list is short (256 kB, ~800 rows): merging costs 7-12 us a row, and a
 *   search reads at most that much.
 * - A transaction id is matched from its start, case-insensitively, by a B-tree on
 *   (account_id, lower(transaction_id)): one entry a row. People paste an id or type its first
 *   characters from the table; the reference is still matched anywhere in it.
 * - The newest-first index carries the type, the reference and the transaction id (INCLUDE), so
 *   a walk filters index entries and visits the heap only for rows not yet all-visible.
 * Replay rebuilds all of them from their live definitions (pg_get_indexdef, reloptions too).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ schema: string }>`
    select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`.execute(db);
  const trgm = rows[0]?.schema;
  if (!trgm) throw new Error('migration 0022: pg_trgm is not installed');
  await sql`
create function read.search_keys(p_account text, p_text text) returns int8[]
language sql immutable strict parallel safe
return array(
  select (hashtext(p_account)::int8 << 32) | (hashtext(t)::int8 & 4294967295)
    from unnest(${sql.id(trgm)}.show_trgm(p_text)) as t
   where strpos(t, ' ') = 0);

-- A search text's keys: only the trigrams inside its words, which every reference containing
-- the text has too. pg_trgm pads each word (two spaces before, one after); a padded trigram
-- of letters outside ASCII is shown hashed, with no space to see, so the padded ones are taken
-- away as what each one- or two-character piece of the text yields (pieces only make padded
-- trigrams). Taking away one too many only admits more candidates, never loses a match.
create function read.search_text_keys(p_account text, p_text text) returns int8[]
language sql immutable strict parallel safe
return array(
  select (hashtext(p_account)::int8 << 32) | (hashtext(t)::int8 & 4294967295)
    from (select unnest(${sql.id(trgm)}.show_trgm(p_text))
          except
          select unnest(${sql.id(trgm)}.show_trgm(substr(p_text, i, 2)))
            from generate_series(1, char_length(p_text)) as i) as inner_trigrams(t));

drop index read.history_reference_search;
drop index read.history_transaction_search;
create index history_search_keys on read.history using gin (read.search_keys(account_id, reference))
  with (gin_pending_list_limit = 256);
create index history_transaction_prefix on read.history (account_id, lower(transaction_id) text_pattern_ops);
drop index read.history_newest_first;
create index history_newest_first on read.history (account_id, created_at desc, position desc)
  include (stream_id, type, reference, transaction_id);
`.execute(db);
}
