/**
 * The public entry of audit/: checking the books - the ledger check and its recorded runs, the
 * trial balance, the explorer, an account's statement and balance, the deposits waiting for
 * review - and the trail of admins' actions, that the CLI (cli/) and the admin API
 * (api/routes/admin/) share. No HTTP here: typed inputs, typed results. Nothing here serves a
 * user: a user's own statement and receipts are user-statements/'s; health, gauges and
 * projection status are operations/'s.
 */

// The ledger check, its recorded runs and the trial balance.
export { verifyLedger, type VerifyReport, type TrialBalanceLine } from './verify.ts';
export { lastVerifyRun, recordVerifyRun, runVerify, startVerify, timedVerify } from './verify-runs.ts';
export { readTrialBalance } from './trial-balance.ts';

// The log and the accounts: explorer, an account's statement as admins read it, balances,
// pending deposits. (A user's own statement and receipts are user-statements/'s.)
export type { PageRequest } from './paging.ts';
export {
  listEvents,
  readAccountEvents,
  readEvent,
  readPostings,
  type EventFilter,
  type PostingLine,
} from './explorer.ts';
export type { RawEvent, RawEventPage } from '../contracts/admin.ts';
export { readStatementPage, statementCsv, type StatementFilter } from './statements.ts';
export { accountBalance, type BalanceReport } from './account-balance.ts';
export { listPendingDeposits } from './pending-deposits.ts';
export { pendingDepositsCsv, PENDING_DEPOSITS_CSV_COLUMNS } from './pending-deposits-csv.ts';
/** Exact rupees from paise ("-12.05"), as the statement CSVs write them: for the CLI's printouts. */
export { rupeesText } from '../contracts/money.ts';

// The trail of admins' actions (their money actions live in admin-actions/).
export {
  AUDIT_SCHEMAS,
  listAdminActions,
  recordAdminAction,
  type AdminActionEntry,
  type AuditTrailQuery,
} from './audit-trail.ts';
