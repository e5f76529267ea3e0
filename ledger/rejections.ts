/**
 * The closed set of reasons the ledger refuses a command. Codes are prescriptive and know
 * no HTTP: api/ maps each one to a status and the spec's message in a single table.
 */
export const REJECTION_CODES = [
  'insufficient_funds',
  'unknown_account',
  'account_exists',
  'self_transfer',
  'invalid_amount',
  'limit_exceeded',
  'invalid_reference',
  'deposit_not_found',
  'deposit_not_pending',
  'request_not_found',
  'request_not_pending',
  'not_request_receiver',
  'stream_conflict',
  'idempotency_key_reused',
  'transaction_not_found',
  'not_reversible',
  'already_reversed',
  'invalid_reason',
  'actor_is_party',
  'not_reviewable_by_hand',
  'payment_mismatch',
  'not_disputable',
  'dispute_already_open',
  'dispute_not_open',
  'dispute_already_upheld',
  'dispute_not_upheld',
] as const;

export type RejectionCode = (typeof REJECTION_CODES)[number];

export class LedgerRejection extends Error {
  readonly code: RejectionCode;
  readonly details: Readonly<Record<string, string>>;

  constructor(code: RejectionCode, message: string, details: Record<string, string> = {}) {
    super(message);
    this.name = 'LedgerRejection';
    this.code = code;
    this.details = details;
  }
}

export function isLedgerRejection(error: unknown): error is LedgerRejection {
  return error instanceof LedgerRejection;
}

export function reject(code: RejectionCode, message: string, details?: Record<string, string>): never {
  throw new LedgerRejection(code, message, details);
}
