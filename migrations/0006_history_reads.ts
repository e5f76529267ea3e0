/**
 * History reads at 100,000 rows per user (bench B5):
 * - pages: the newest-first and by-type indexes also carry `stream_id`, so a page's keys,
 *   however deep (OFFSET), come from an index-only scan, and only the page's own rows are
 *   fetched from the table (projections/history/queries.ts readHistoryPage);
 * - search: the trigram indexes lead with `account_id` (btree_gin), so one user's matches are
 *   found without walking every user's (a common word matched a tenth of all rows).
 * Indexes are found by definition, not only by name: a replay before this migration renamed
 * them (CREATE TABLE ... LIKE gives new names). pg_trgm and btree_gin are trusted extensions
 * shipped with PostgreSQL (13+): the embedded 18 and the CI's 15 alike.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
create extension if not exists btree_gin;

do $$
declare
  v_index regclass;
begin
  for v_index in
    select i.indexrelid::regclass from pg_index i
     where i.indrelid = 'read.history'::regclass and not i.indisunique and i.indpred is null
       and (pg_get_indexdef(i.indexrelid) like '% USING btree (account_id, created_at DESC, "position" DESC)'
         or pg_get_indexdef(i.indexrelid) like '% USING btree (account_id, type, created_at DESC, "position" DESC)'
         or pg_get_indexdef(i.indexrelid) like '% USING gin (reference gin_trgm_ops)'
         or pg_get_indexdef(i.indexrelid) like '% USING gin (transaction_id gin_trgm_ops)')
  loop
    execute 'drop index ' || v_index::text;
  end loop;
end
$$;

create index history_newest_first on read.history (account_id, created_at desc, position desc) include (stream_id);
create index history_by_type on read.history (account_id, type, created_at desc, position desc) include (stream_id);
create index history_reference_search on read.history using gin (account_id, reference gin_trgm_ops);
create index history_transaction_search on read.history using gin (account_id, transaction_id gin_trgm_ops);
`.execute(db);
}
