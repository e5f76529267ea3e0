/**
 * The public entry of admin-actions/: what an admin does to money - settling or failing a
 * pending deposit, reversing a movement - with four eyes above the approval threshold (per
 * action and over 24 hours), each action committed with its row in the audit trail. No HTTP
 * here: typed inputs, typed results, refusals as ApprovalRejection codes (or the ledger's).
 */
export {
  approveRequest,
  failDepositAsAdmin,
  listApprovalRequests,
  performAdminMoneyAction,
  rejectRequest,
  type ActionDone,
  type AdminMoneyDependencies,
  type AdminMoneyOutcome,
  type ApprovalCause,
  type ApprovalListQuery,
} from './money-actions.ts';
export {
  listDisputes,
  raiseDispute,
  readDispute,
  readDisputeOfPayment,
  rejectDispute,
  reverseDisputedPayment,
  type DisputeListQuery,
} from './disputes.ts';
export {
  APPROVAL_REJECTION_CODES,
  ApprovalRejection,
  isApprovalRejection,
  type ApprovalRejectionCode,
} from './rejections.ts';
