/**
 * History search matches a transaction id by its end as well as by its start. Ids of money
 * movements are UUIDv7 from now on (platform/ids.ts, decision 0017): their first characters
 * are the time they were made, shared by every transaction of the same minute, so the web app
 * shows the random tail and people type or paste it. One B-tree entry a row, on the reversed
 * id, so "ends with" is a range scan like "starts with".
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
create index history_transaction_tail on read.history (account_id, reverse(lower(transaction_id)) text_pattern_ops);
`.execute(db);
}
