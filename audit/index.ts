/**
 * The public entry of audit/: the operator and audit reads (and the admins' audited money
 * actions) that the CLI and the admin API share. No HTTP here: typed inputs, typed results.
 */
export { verifyLedger, type VerifyReport, type TrialBalanceLine } from './verify.ts';
export { recordVerifyRun, runVerify, timedVerify, type VerifyRun } from './verify-runs.ts';
export { projectionStatus, HELD_BACK_WARNING_SECONDS, type ProjectionStatus, type StatusReport, type XminHolder } from './projection-status.ts';
export { readTrialBalance } from './trial-balance.ts';
export { listPendingDeposits, type PendingDeposit } from './pending-deposits.ts';
export { ADMIN_ACTIONS, listAdminActions, recordAdminAction, type AdminAction, type AdminActionEntry, type AuditTrailQuery } from './audit-trail.ts';
export { runAudited } from './audited.ts';
export { listEvents, readEvent, type ExplorerFilter } from './explorer.ts';
export { readAccountEvents, readStatementPage, statementCsv, type StatementFilter, type RawEventPage } from './statements.ts';
