/**
 * Every rejection the API can give, in one table: code -> HTTP status and the message the
 * client shows (the spec's wording where it has one). Domain modules raise codes; only
 * this file knows HTTP.
 */
import type { ApprovalRejectionCode } from '../admin-actions/index.ts';
import { DOCUMENT_CHECK_REQUIRED_MESSAGE } from '../contracts/identity-check.ts';
import { SELF_TRANSFER_MESSAGE } from '../contracts/transactions.ts';
import type { IdentityRejectionCode } from '../identity/index.ts';
import type { RejectionCode } from '../ledger/index.ts';

export type ApiErrorCode =
  | RejectionCode
  | IdentityRejectionCode
  | ApprovalRejectionCode
  | 'validation_failed'
  | 'card_failed'
  | 'unauthenticated'
  | 'token_invalid'
  | 'USER_NOT_VERIFIED'
  | 'USER_SUSPENDED'
  | 'forbidden'
  | 'admin_only'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  | 'database_unavailable'
  | 'not_ready'
  | 'internal';

interface ErrorEntry {
  status: number;
  message: string;
  /** The `code` the reply carries when it is not the entry's own (see the audit codes). */
  publicCode?: string;
}

export const API_ERRORS: Readonly<Record<ApiErrorCode, ErrorEntry>> = {
  insufficient_funds: { status: 400, message: 'Insufficient balance' },
  unknown_account: { status: 404, message: 'Account not found' },
  account_exists: { status: 409, message: 'Account already exists' },
  self_transfer: { status: 400, message: SELF_TRANSFER_MESSAGE },
  invalid_amount: { status: 400, message: 'Please enter a valid amount' },
  limit_exceeded: { status: 400, message: 'Amount exceeds the allowed limit' },
  invalid_reference: { status: 400, message: 'Reference must be at least 3 characters' },
  deposit_not_found: { status: 404, message: 'Deposit not found' },
  deposit_not_pending: { status: 409, message: 'Deposit has already been processed' },
  request_not_found: { status: 404, message: 'Request not found' },
  request_not_pending: { status: 400, message: 'Request has already been processed' },
  not_request_receiver: { status: 403, message: 'Only the receiver of a request can accept or reject it' },
  stream_conflict: { status: 409, message: 'This item changed at the same time. Please try again.' },
  idempotency_key_reused: { status: 422, message: 'This Idempotency-Key was already used for a different request' },
  transaction_not_found: { status: 404, message: 'Transaction not found' },
  not_reversible: { status: 409, message: 'This transaction cannot be reversed' },
  already_reversed: { status: 409, message: 'This transaction has already been reversed' },
  invalid_reason: { status: 400, message: 'A reason of 3 to 500 characters is required' },
  actor_is_party: { status: 403, message: 'You cannot act on a transaction you take part in' },
  not_reviewable_by_hand: { status: 409, message: 'Card deposits are settled by the card provider, not by hand' },
  payment_mismatch: { status: 409, message: 'The confirmed payment does not match the recorded deposit' },
  not_disputable: { status: 403, message: 'Only the payer of a completed payment can dispute it' },
  dispute_already_open: { status: 409, message: 'This payment already has an open dispute' },
  dispute_not_open: { status: 409, message: 'This dispute is no longer open' },
  dispute_already_upheld: {
    status: 409,
    message: "This dispute is already upheld: its reversal waits for a second admin's approval",
  },
  dispute_not_upheld: { status: 409, message: 'This dispute is not waiting for that approval' },
  // The approval flow's codes answer with the generic codes these replies had before
  // admin-actions/ named its refusals, so clients that match on `code` see no change.
  approval_not_found: { status: 404, message: 'Approval request not found', publicCode: 'not_found' },
  approval_already_approved: { status: 409, message: 'This request has already been approved', publicCode: 'conflict' },
  approval_already_rejected: { status: 409, message: 'This request has already been rejected', publicCode: 'conflict' },
  approval_changed_concurrently: {
    status: 409,
    message: 'The approval request changed at the same time. Please try again.',
    publicCode: 'conflict',
  },
  approver_is_requester: { status: 403, message: 'A second admin must approve this request', publicCode: 'forbidden' },
  dispute_not_found: { status: 404, message: 'Dispute not found', publicCode: 'not_found' },
  email_taken: { status: 409, message: 'An account with this email already exists' },
  invalid_credentials: { status: 401, message: 'Invalid email or password' },
  OAUTH_USER: { status: 400, message: 'Please use Google to sign in to your account' },
  user_not_found: { status: 404, message: 'User not found' },
  cannot_suspend_self: { status: 403, message: 'You cannot suspend your own account' },
  handle_taken: { status: 409, message: 'This handle is already taken' },
  handle_already_set: { status: 409, message: 'Your handle is already set and cannot be changed' },
  document_check_required: { status: 400, message: DOCUMENT_CHECK_REQUIRED_MESSAGE },
  otp_invalid: { status: 400, message: 'Invalid OTP' },
  otp_expired: { status: 400, message: 'OTP has expired or was not requested. Please request a new one.' },
  otp_not_verified: { status: 400, message: 'Please verify the OTP first' },
  otp_attempts_exceeded: { status: 429, message: 'Too many failed attempts. Please request a new OTP.' },
  otp_resend_wait: { status: 429, message: 'Please wait before requesting a new OTP' },
  otp_daily_limit: {
    status: 429,
    message: 'Too many codes requested for this email today. Please try again tomorrow.',
  },
  PIN_NOT_SET: { status: 400, message: 'Please set your transaction PIN first in settings.' },
  invalid_pin: { status: 400, message: 'Invalid transaction PIN' },
  PIN_LOCKED: { status: 429, message: 'Too many wrong PIN attempts. Please try again later.' },
  PIN_CHECK_BUSY: { status: 503, message: 'Too many PIN checks at once. Please try again in a moment.' },
  PIN_RESET_REQUIRED: {
    status: 403,
    message: 'Too many wrong PIN attempts. Reset your transaction PIN by e-mail to unlock transfers and deposits.',
  },
  validation_failed: { status: 400, message: 'Invalid request' },
  card_failed: { status: 402, message: 'Card payment failed. Please try again.' },
  unauthenticated: { status: 401, message: 'Please sign in to continue' },
  token_invalid: { status: 401, message: 'Your session has expired. Please sign in again.' },
  USER_NOT_VERIFIED: { status: 403, message: 'Please verify your email address to continue.' },
  USER_SUSPENDED: { status: 403, message: 'Your account is suspended. Please contact support.' },
  forbidden: { status: 403, message: 'You are not allowed to do this' },
  admin_only: { status: 403, message: 'Only admins can do this' },
  not_found: { status: 404, message: 'Not found' },
  conflict: { status: 409, message: 'Conflict' },
  rate_limited: { status: 429, message: 'Too many requests. Please try again later.' },
  database_unavailable: { status: 503, message: 'The service is temporarily unavailable. Please try again shortly.' },
  not_ready: { status: 503, message: 'Not ready' },
  internal: { status: 500, message: 'Something went wrong. Please try again.' },
};

/** Thrown by route handlers; the error handler turns it into the envelope. */
export class ApiError extends Error {
  readonly code: ApiErrorCode | (string & {});
  readonly status: number;

  constructor(code: ApiErrorCode, message?: string, options: { status?: number; publicCode?: string } = {}) {
    const entry = API_ERRORS[code];
    super(message ?? entry.message);
    this.name = 'ApiError';
    this.code = options.publicCode ?? entry.publicCode ?? code;
    this.status = options.status ?? entry.status;
  }
}
