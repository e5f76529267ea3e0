/**
 * Row types of the ledger schema, as Kysely sees them. Domain types live in ../events.ts.
 */
import type { ColumnType, Generated } from 'kysely';

export interface AccountRow {
  id: string;
  kind: 'wallet' | 'funding';
  allow_negative: boolean;
  balance: bigint | null;
  seq: bigint | null;
  opened_at: ColumnType<Date, Date | undefined, never>;
}

export interface EventRow {
  position: ColumnType<bigint, never, never>;
  tx_id: ColumnType<string, never, never>;
  stream_id: string;
  stream_version: number;
  type: string;
  data: unknown;
  metadata: unknown;
  recorded_at: ColumnType<Date, never, never>;
}

export interface PostingRow {
  position: bigint;
  account_id: string;
  amount: bigint;
  account_seq: bigint | null;
  balance_after: bigint | null;
}

export interface IdempotencyKeyRow {
  actor_id: string;
  key: string;
  command: string;
  /** The request's SHA-256, 32 bytes (the SQL compares its hex form). */
  request_hash: Buffer;
  result: unknown;
  recorded_at: Generated<Date>;
}

export interface LedgerTables {
  'ledger.accounts': AccountRow;
  'ledger.events': EventRow;
  'ledger.postings': PostingRow;
  'ledger.idempotency_keys': IdempotencyKeyRow;
}
