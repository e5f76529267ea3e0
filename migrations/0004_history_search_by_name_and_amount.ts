/**
 * History search finds what a row shows (issue 41): the counterparty's name and the amount as
 * well as the reference and the transaction id. The trigram index's keys now come from the
 * reference and the name together, plus one key for the amount
 * (`read.history_search_keys`, projections/history/search-keys.sql); the newest-first index
 * carries the name and the amount, so a search still reads a user's newest rows from the index
 * alone. Both indexes are rebuilt here (a replay copies the live table's indexes).
 */
import { readFileSync } from 'node:fs';
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The index expression's function first (the definitions are applied after the migrations).
  await sql.raw(readFileSync(new URL('../projections/history/search-keys.sql', import.meta.url), 'utf8')).execute(db);
  await sql`
drop index read.history_search_keys;
create index history_search_keys on read.history
  using gin (read.history_search_keys(account_id, reference, counterparty_name, amount_paise))
  with (gin_pending_list_limit = 256);
drop index read.history_newest_first;
create index history_newest_first on read.history (account_id, created_at desc, position desc)
  include (stream_id, type, reference, transaction_id, counterparty_name, amount_paise);
`.execute(db);
}
