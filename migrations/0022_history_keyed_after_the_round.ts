/**
 * An account's earlier history rows are keyed after the round that passes the bound, not in it
 * (issue 40: a reply waits for the round). `read.history_keying` lists the accounts whose
 * earlier rows wait for it (projections/history/rules.sql): the rule queues an account as its
 * count passes `read.history_keys_after_rows()`, and `projector.key_earlier_history` keys the
 * rows and takes the account off the list in one transaction. A search of a listed account
 * walks its rows (projections/history/queries.ts). Keying 2,000 rows with their search keys in
 * the round took ~1 s, and every reply waiting for the projections waited it out (quick B2's
 * open-loop p99 of ~2 s: bench/RESULTS.md, "2026-12-02 15:59").
 *
 * Empty here: the rows of every account past the bound were keyed in their rounds until now.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
create table read.history_keying (
  account_id text primary key
);
insert into replay.projection_tables (projection, table_name) values ('history', 'history_keying');
`.execute(db);
}
