/**
 * History's by-type index and the B-tree on the transaction id's start hold only keyed rows, the
 * rows of accounts with more than `read.history_keys_after_rows()` (2,000) rows (issue 40: the
 * read side's cost; decision 0024).
 *
 * Each was a B-tree entry per history row, ~8 us and ~300 B of WAL an event on B1's ledger,
 * where no wallet has 2,000 rows. A shorter history is cheap to read whole: a page of one type,
 * a search and a transaction's page filter its rows, through the newest-first index or the
 * primary key (projections/history/queries.ts, entry.ts). A longer one
 * is keyed whole (migration 0017), and its reads name `keyed` so the planner can use these.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
drop index read.history_by_type;
create index history_by_type on read.history (account_id, type, created_at desc, position desc) include (stream_id)
  where keyed;
drop index read.history_transaction_prefix;
create index history_transaction_prefix on read.history (account_id, lower(transaction_id) text_pattern_ops)
  where keyed;
`.execute(db);
}
