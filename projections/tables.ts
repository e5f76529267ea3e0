/**
 * The read schema as Kysely sees it: each projection's row types (in its folder) and the
 * checkpoints (the engine's). Only the projections' SQL rules write these tables; the API
 * reads them through each projection's queries.ts.
 */
import type { BalanceRow, DirectoryRow, StatementLineRow } from './accounts/tables.ts';
import type { HistoryCountRow, HistoryRow } from './history/tables.ts';
import type { MoneyRequestRow } from './money-requests/tables.ts';
import type { StatementDayRow } from './statement-days/tables.ts';
import type { Xid8 } from './column-types.ts';

export type * from './accounts/tables.ts';
export type * from './history/tables.ts';
export type * from './money-requests/tables.ts';
export type * from './statement-days/tables.ts';

export interface CheckpointRow {
  projection: string;
  tx_id: Xid8;
  position: bigint;
  events_applied: bigint;
  updated_at: Date;
  last_error: string | null;
  last_error_at: Date | null;
}

export interface ReadTables {
  'read.checkpoints': CheckpointRow;
  'read.directory': DirectoryRow;
  'read.balances': BalanceRow;
  'read.statement_lines': StatementLineRow;
  'read.history': HistoryRow;
  'read.history_counts': HistoryCountRow;
  'read.money_requests': MoneyRequestRow;
  'read.statement_days': StatementDayRow;
}
