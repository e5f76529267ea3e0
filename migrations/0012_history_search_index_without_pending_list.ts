/**
 * History's search index (`read.history_search_keys`, GIN) takes each row's keys into the index
 * itself, with no pending list (`fastupdate = off`; issue 40: the read side's cost).
 *
 * A row's keys are its account's (each key carries a hash of the account), so with 10,000
 * wallets the entries a pending list gathered between merges had about one row each: merging
 * them cost what inserting them directly costs, after writing them to the list, reading them
 * back, and a timer in every worker to merge them (the projection's upkeep, which is gone).
 * Measured alone, history's rule went from ~200 to ~170 us per event (bench/RESULTS.md), and a
 * search no longer reads the pending list.
 *
 * Turning fastupdate off keeps the entries already pending: they are merged here, as the
 * index's owner. A replay's rebuilt index is created from this index's definition, with the
 * same option.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
alter index read.history_search_keys set (fastupdate = off);
alter index read.history_search_keys reset (gin_pending_list_limit);
select gin_clean_pending_list('read.history_search_keys'::regclass);
drop function if exists projector.merge_history_search_keys();
`.execute(db);
}
