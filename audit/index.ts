/**
 * The public entry of audit/: the operator and audit reads (and the admins' audited money
 * actions) that the CLI and the admin API share. No HTTP here: typed inputs, typed results.
 */
export { verifyLedger, type VerifyReport, type TrialBalanceLine } from './verify.ts';
export { recordVerifyRun, runVerify, timedVerify, type VerifyRun } from './verify-runs.ts';
export { projectionStatus, HELD_BACK_WARNING_SECONDS, type ProjectionStatus, type StatusReport, type XminHolder } from './projection-status.ts';
export { readTrialBalance } from './trial-balance.ts';
export { listPendingDeposits } from './pending-deposits.ts';
export { ADMIN_ACTIONS, listAdminActions, recordAdminAction, type AdminAction, type AdminActionEntry, type AuditTrailQuery } from './audit-trail.ts';
export { runAudited } from './audited.ts';
export { listEvents, readAccountEvents, readEvent, readPostings, type EventFilter, type PostingLine } from './explorer.ts';
export type { RawEvent, RawEventPage } from '../contracts/admin.ts';
export { readStatementPage, statementCsv, type StatementFilter } from './statements.ts';
export { accountBalance, type BalanceReport } from './account-balance.ts';
export type { KeysetPage, PageRequest } from './paging.ts';
export { AUDIT_REJECTION_CODES, AuditRejection, isAuditRejection, type AuditRejectionCode } from './rejections.ts';
export {
  DEFAULT_APPROVAL_THRESHOLD_PAISE,
  approveRequest,
  failDepositAsAdmin,
  listApprovalRequests,
  performAdminMoneyAction,
  rejectRequest,
  type ActionDone,
  type AdminMoneyDependencies,
  type AdminMoneyOutcome,
  type ApprovalListQuery,
} from './money-actions.ts';
export { latestReplay, readProjectionsOverview, requestProjectionReplay, type ReplayRequest } from './projections.ts';
