/**
 * Per-user history row counts, by type (projection "history"): a history page's total is a
 * key lookup instead of counting the user's rows (bench B5: count(*) over 100,000 rows was
 * most of a page's 17 ms). Filled from the rows already projected, with the history table
 * locked against the projector so the counts and the checkpoint agree.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
create table read.history_counts (
  account_id text not null,
  type text not null,
  rows bigint not null check (rows >= 0),
  primary key (account_id, type)
);

lock table read.history in share mode;
insert into read.history_counts (account_id, type, rows)
select account_id, type, count(*) from read.history group by account_id, type;
`.execute(db);
}
