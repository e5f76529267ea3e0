/**
 * Identity's rejections: a closed set of codes with a message for the user. The HTTP
 * status of each code lives in api/errors.ts (the domain knows no HTTP).
 */
export type IdentityRejectionCode =
  | 'email_taken'
  | 'invalid_credentials'
  | 'USER_NOT_VERIFIED'
  | 'OAUTH_USER'
  | 'user_not_found'
  /** The account a payment is to credit does not exist or is not active (checked with the PIN). */
  | 'unknown_account'
  | 'cannot_suspend_self'
  /** A handle someone else chose first, or a second handle for a user who has one (issue 43). */
  | 'handle_taken'
  | 'handle_already_set'
  /** An activation sent with the document check explicitly not confirmed. */
  | 'document_check_required'
  | 'otp_invalid'
  | 'otp_expired'
  | 'otp_not_verified'
  | 'otp_attempts_exceeded'
  | 'otp_resend_wait'
  | 'otp_daily_limit'
  | 'PIN_NOT_SET'
  | 'invalid_pin'
  | 'PIN_LOCKED'
  | 'PIN_RESET_REQUIRED'
  | 'PIN_CHECK_BUSY';

export class IdentityRejection extends Error {
  readonly code: IdentityRejectionCode;
  /** For waits and lockouts: when the caller may try again. */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: IdentityRejectionCode, message: string, retryAfterSeconds?: number) {
    super(message);
    this.name = 'IdentityRejection';
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export function isIdentityRejection(error: unknown): error is IdentityRejection {
  return error instanceof IdentityRejection;
}
