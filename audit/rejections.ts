/**
 * audit/'s own refusals: a closed set of prescriptive codes (the ledger's rejections pass
 * through unchanged). The HTTP status and message of each code live in api/errors.ts; this
 * module knows no HTTP.
 */
export const AUDIT_REJECTION_CODES = [
  'approval_not_found',
  'approval_already_approved',
  'approval_already_rejected',
  /** Two admins filed or decided the same request at once: ask again. */
  'approval_changed_concurrently',
  /** Four eyes: whoever filed a request cannot approve it. */
  'approver_is_requester',
] as const;

export type AuditRejectionCode = (typeof AUDIT_REJECTION_CODES)[number];

export class AuditRejection extends Error {
  readonly code: AuditRejectionCode;

  constructor(code: AuditRejectionCode, message: string) {
    super(message);
    this.name = 'AuditRejection';
    this.code = code;
  }
}

export function isAuditRejection(error: unknown): error is AuditRejection {
  return error instanceof AuditRejection;
}
