/**
 * `read.statement_lines` is keyed by (account, sequence) alone: its second key, (account,
 * position), goes (issue 40: fewer index writes per event).
 *
 * Every reader pages and sorts a statement by sequence (projections/accounts/queries.ts), and
 * the rule inserts without ON CONFLICT, so no statement and no plan used the position key; it
 * cost a B-tree insert for each posting (two a transfer) on the worker's path, and an index
 * build in every replay of the accounts projection. (account, sequence) is the key that says
 * what a statement line is: the nth line of an account's statement, once.
 *
 * The primary key moves to a new unique index on the same columns (a constraint cannot take
 * over the index of another), and the old unique constraint then goes. A replay copies the
 * table's keys from the live table (projections/engine/replay.sql), so rebuilt tables follow.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
create unique index statement_lines_by_sequence on read.statement_lines (account_id, sequence);
alter table read.statement_lines drop constraint statement_lines_pkey;
alter table read.statement_lines drop constraint statement_lines_account_id_sequence_key;
alter table read.statement_lines add constraint statement_lines_pkey primary key using index statement_lines_by_sequence;
`.execute(db);
}
