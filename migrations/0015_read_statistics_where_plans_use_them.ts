/**
 * The read tables' planner statistics only where a plan uses them: a statistics target of 0 for
 * the columns no query filters, joins, groups or sorts on, and for the history search keys'
 * expression (the search chooses its way itself, from the user's own rows: queries.ts,
 * searchHistory). Computing those keys for every sampled row was half of each ANALYZE of
 * `read.history`: on 329k rows 915 ms with every statistic, 614 ms with none but the
 * expression indexes', 335 ms with this migration's targets (bench/RESULTS.md, 2026-11-29
 * 21:44 entry); seven history searches like B5's took the same time either way. Autovacuum
 * analyzes these tables after every tenth of growth on the cores that serve payments, and
 * `read.history`'s analyses were the worst of the stalls behind the open loop's payment p99.
 * A replay carries these targets to the tables and indexes it rebuilds
 * (projections/engine/replay.sql).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
alter table read.history
  alter column sender_id set statistics 0, alter column receiver_id set statistics 0,
  alter column counterparty_name set statistics 0, alter column reference set statistics 0,
  alter column amount_paise set statistics 0, alter column updated_at set statistics 0,
  alter column tx_id set statistics 0, alter column failure_reason set statistics 0;
alter index read.history_search_keys alter column 1 set statistics 0;
alter table read.statement_lines
  alter column tx_id set statistics 0, alter column transaction_id set statistics 0,
  alter column counterparty_id set statistics 0, alter column counterparty_name set statistics 0,
  alter column balance_after_paise set statistics 0;
`.execute(db);
}
