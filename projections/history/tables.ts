/**
 * Row types of projection "history"' read tables (migrations/0001_baseline.ts), as
 * Kysely sees them. Only its rules (projector.apply_history) write them.
 */
import type { Xid8 } from '../column-types.ts';

export type HistoryType = 'deposit' | 'debit' | 'credit';
export type HistoryStatus = 'success' | 'pending' | 'failed';

/** Projection "history"' tables: what its queries may read. */
export interface HistoryTables {
  'read.history': HistoryRow;
  'read.history_counts': HistoryCountRow;
  'read.history_keying': HistoryKeyingRow;
}

export interface HistoryRow {
  account_id: string;
  stream_id: string;
  transaction_id: string;
  type: HistoryType;
  sender_id: string;
  receiver_id: string;
  counterparty_id: string;
  counterparty_name: string;
  amount_paise: bigint;
  reference: string;
  status: HistoryStatus;
  method: string;
  created_at: Date;
  updated_at: Date;
  tx_id: Xid8;
  /** A failed deposit's reason, as the admin gave it; null otherwise. */
  failure_reason: string | null;
  position: bigint;
  /**
   * Whether the search index holds the row: its account has more rows than
   * `read.history_keys_after_rows()` (its earlier rows from just after the round that passed it).
   */
  keyed: boolean;
}

/** How many history rows an account has, per type (maintained with the rows). */
export interface HistoryCountRow {
  account_id: string;
  type: HistoryType;
  rows: bigint;
}

/** An account past the bound whose earlier rows are not keyed yet (projector.key_earlier_history keys them). */
export interface HistoryKeyingRow {
  account_id: string;
}
