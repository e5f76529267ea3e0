/**
 * Row type of projection "money_requests"' read table (migrations/0001_baseline.ts), as
 * Kysely sees it. Only its rules (projector.apply_money_requests) write it.
 */
export type MoneyRequestStatus = 'pending' | 'accepted' | 'rejected';

/** Projection "money_requests"' table: what its queries may read. */
export interface MoneyRequestsTables {
  'read.money_requests': MoneyRequestRow;
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
