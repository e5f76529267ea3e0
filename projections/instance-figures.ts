/**
 * This instance's public payment figures, read from the read tables (never a scan of the event
 * log): payments made between wallets (read.history_counts' debit rows: each transfer, paid
 * money request and reversal has exactly one) and money moved by them (read.statement_days'
 * money out of every wallet). The landing page shows them beside the customers, which
 * identity counts (a wallet's events do not say whether its owner is an admin).
 */
import { sql, type Kysely } from 'kysely';
import type { HistoryTables, StatementDaysTables } from './tables.ts';

export interface InstanceFigures {
  payments: bigint;
  moneyMovedPaise: bigint;
}

/** One statement, so the two figures come from one snapshot. */
export async function readInstanceFigures(
  db: Kysely<HistoryTables> & Kysely<StatementDaysTables>,
): Promise<InstanceFigures> {
  const { rows } = await sql<{ payments: string; money_moved: string }>`
    select (select coalesce(sum(rows), 0) from read.history_counts where type = 'debit')::text as payments,
           (select coalesce(sum(money_out_paise), 0) from read.statement_days)::text as money_moved`.execute(db);
  const row = rows[0];
  return {
    payments: BigInt(row?.payments ?? '0'),
    moneyMovedPaise: BigInt(row?.money_moved ?? '0'),
  };
}
