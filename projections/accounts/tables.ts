/**
 * Row types of projection "accounts"' read tables (migrations/0001_baseline.ts), as Kysely
 * sees them. Only its rules (projector.apply_accounts) write them.
 */
import type { LedgerEventType } from '../../ledger/index.ts';
import type { Xid8 } from '../column-types.ts';

/** Projection "accounts"' tables: what its queries may read. */
export interface AccountsTables {
  'read.directory': DirectoryRow;
  'read.balances': BalanceRow;
  'read.statement_lines': StatementLineRow;
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

export interface StatementLineRow {
  account_id: string;
  position: bigint;
  tx_id: Xid8;
  sequence: bigint;
  /** The ledger's type: a query or a switch that names a type the ledger lacks fails to compile. */
  event_type: LedgerEventType;
  stream_id: string;
  transaction_id: string;
  counterparty_id: string | null;
  counterparty_name: string | null;
  amount_paise: bigint;
  balance_after_paise: bigint;
  recorded_at: Date;
}
