/**
 * Row types of the read schema (migrations/0002_read_model.ts), as Kysely sees them. Only the
 * projectors in this folder write these tables; the API reads them through ./queries.ts.
 */
import type { ColumnType } from 'kysely';

/** xid8 has no pg type parser: it arrives as a decimal string. */
type Xid8 = ColumnType<string, string, string>;

export type HistoryType = 'deposit' | 'debit' | 'credit';
export type HistoryStatus = 'success' | 'pending' | 'failed';
export type MoneyRequestStatus = 'pending' | 'accepted' | 'rejected';

export interface CheckpointRow {
  projection: string;
  tx_id: Xid8;
  position: bigint;
  events_applied: bigint;
  updated_at: Date;
  last_error: string | null;
  last_error_at: Date | null;
}

export interface DirectoryRow {
  account_id: string;
  display_name: string;
  kind: 'wallet' | 'funding';
  opened_at: Date;
}

export interface BalanceRow {
  account_id: string;
  balance_paise: bigint;
  postings_count: bigint;
  last_position: bigint | null;
  updated_at: Date;
}

export interface StatementRow {
  account_id: string;
  position: bigint;
  tx_id: Xid8;
  sequence: bigint;
  event_type: string;
  stream_id: string;
  transaction_id: string;
  counterparty_id: string | null;
  counterparty_name: string | null;
  amount_paise: bigint;
  balance_after_paise: bigint;
  recorded_at: Date;
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
  position: bigint;
}

/** How many history rows an account has, per type (maintained with the rows). */
export interface HistoryCountRow {
  account_id: string;
  type: HistoryType;
  rows: bigint;
}

export interface MoneyRequestRow {
  request_id: string;
  requester_id: string;
  requester_name: string;
  payer_id: string;
  payer_name: string;
  amount_paise: bigint;
  reference: string;
  status: MoneyRequestStatus;
  created_at: Date;
  updated_at: Date;
  position: bigint;
}

export interface ReadTables {
  'read.checkpoints': CheckpointRow;
  'read.directory': DirectoryRow;
  'read.balances': BalanceRow;
  'read.statements': StatementRow;
  'read.history': HistoryRow;
  'read.history_counts': HistoryCountRow;
  'read.money_requests': MoneyRequestRow;
}
