/**
 * This instance's public figures, read from the read tables (never a scan of the event log):
 * wallets opened (read.directory), payments made between wallets (read.history_counts' debit
 * rows: each transfer, paid money request and reversal has exactly one) and money moved by
 * them (read.statement_days' money out of every wallet). The landing page shows them.
 */
import { sql, type Kysely } from 'kysely';
import type { ReadTables } from './tables.ts';

export interface InstanceFigures {
  accounts: bigint;
  payments: bigint;
  moneyMovedPaise: bigint;
}

/** One statement, so the three figures come from one snapshot. */
export async function readInstanceFigures(db: Kysely<ReadTables>): Promise<InstanceFigures> {
  const { rows } = await sql<{ accounts: string; payments: string; money_moved: string }>`
    select (select count(*) from read.directory where kind = 'wallet')::text as accounts,
           (select coalesce(sum(rows), 0) from read.history_counts where type = 'debit')::text as payments,
           (select coalesce(sum(money_out_paise), 0) from read.statement_days)::text as money_moved`.execute(db);
  const row = rows[0];
  return {
    accounts: BigInt(row?.accounts ?? '0'),
    payments: BigInt(row?.payments ?? '0'),
    moneyMovedPaise: BigInt(row?.money_moved ?? '0'),
  };
}
