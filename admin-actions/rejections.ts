/**
 * The approval flow's own refusals: a closed set of prescriptive codes (the ledger's rejections pass
 * through unchanged). The HTTP status and message of each code live in api/errors.ts; this
 * module knows no HTTP.
 */
export const APPROVAL_REJECTION_CODES = [
  'approval_not_found',
  'approval_already_approved',
  'approval_already_rejected',
  /** Two admins filed or decided the same request at once: ask again. */
  'approval_changed_concurrently',
  /** Four eyes: whoever filed a request cannot approve it. */
  'approver_is_requester',
  /** No dispute has this id (admin-actions/disputes.ts). */
  'dispute_not_found',
] as const;

export type ApprovalRejectionCode = (typeof APPROVAL_REJECTION_CODES)[number];

export class ApprovalRejection extends Error {
  readonly code: ApprovalRejectionCode;

  constructor(code: ApprovalRejectionCode, message: string) {
    super(message);
    this.name = 'ApprovalRejection';
    this.code = code;
  }
}

export function isApprovalRejection(error: unknown): error is ApprovalRejection {
  return error instanceof ApprovalRejection;
}
