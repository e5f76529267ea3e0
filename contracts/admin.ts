/**
 * The admin and operator API's reply shapes (api/routes/admin.ts), shared with the web app's
 * admin screens: the web app imports wire types from contracts/ only, never from server code.
 * Money is rupees as JSON numbers, with exact paise as decimal strings where auditors need them.
 */

export const ADMIN_ACTIONS = ['suspend', 'activate', 'settle', 'fail', 'reverse', 'replay', 'request_approval', 'reject_approval'] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];

export const APPROVAL_STATES = ['pending', 'approved', 'rejected'] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

/** A money action of one admin waiting for (or decided by) a second admin. */
export interface ApprovalRecord {
  id: string;
  action: 'settle' | 'reverse';
  /** The stream the action changes (deposit-<id>, transfer-<id>, request-<id>). */
  target: string;
  /** Rupees. */
  amount: number;
  /** Reversals: the reason the requesting admin gave. */
  reason: string | null;
  requestedBy: string;
  requestedByName: string | null;
  requestedAt: string;
  state: ApprovalState;
  decidedBy: string | null;
  decidedByName: string | null;
  decidedAt: string | null;
  decisionReason: string | null;
}

export interface StatementLine {
  sequence: string;
  position: string;
  recordedAt: string;
  eventType: string;
  streamId: string;
  transactionId: string;
  counterpartyId: string | null;
  counterpartyName: string | null;
  /** Rupees, signed: credits positive, debits negative. */
  amount: number;
  balanceAfter: number;
}

export interface StatementPage {
  accountId: string;
  displayName: string | null;
  kind: string | null;
  balance: number | null;
  items: StatementLine[];
  /** Pass as `after` for the next page; null on the last page. */
  nextAfter: string | null;
}

export interface RawEvent {
  position: string;
  txId: string;
  streamId: string;
  streamVersion: number;
  type: string;
  /** As stored: money fields are decimal strings of paise. */
  data: unknown;
  actorId: string | null;
  idempotencyKey: string | null;
  requestId: string | null;
  command: string | null;
  recordedAt: string;
}

export interface EventPosting {
  accountId: string;
  accountName: string | null;
  /** Rupees, signed. */
  amount: number;
  accountSeq: string | null;
  balanceAfter: number | null;
}

export type EventDetail = RawEvent & { postings: EventPosting[] };

export interface VerifyRun {
  id: string;
  ranAt: string;
  source: string;
  ok: boolean;
  differences: string[];
  totalPaise: string;
  durationMs: number;
}

export interface TrialBalance {
  byKind: { kind: string; accounts: number; balance: number; balancePaise: string }[];
  total: number;
  totalPaise: string;
  balanced: boolean;
  fundingSources: { method: string; accountId: string; balance: number; balancePaise: string; postings: number }[];
  lastVerify: VerifyRun | null;
}

export interface AdminActionRecord {
  id: string;
  actorId: string;
  actorName: string | null;
  action: AdminAction;
  target: string;
  reason: string | null;
  details: Record<string, unknown>;
  recordedAt: string;
}

export interface AuditTrailPage {
  items: AdminActionRecord[];
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: string | null;
}

export type ReplayState = 'queued' | 'running' | 'done' | 'failed';

export interface ReplayRun {
  id: string;
  projection: string;
  state: ReplayState;
  requestedBy: string;
  processed: number;
  total: number;
  error: string | null;
  requestedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** The session holding the snapshot xmin back (projectors wait behind it). */
export interface XminHolder {
  pid: number;
  applicationName: string;
  /** The role the session runs as. */
  role: string;
  /**
   * False for another role's session when this one may not see its details (the runtime role
   * is no superuser and not in pg_read_all_stats): state, age and query are then unknown.
   */
  visible: boolean;
  state: string;
  transactionSeconds: number | null;
  query: string;
}

export interface ProjectionState {
  name: string;
  /** `<tx_id>.<position>` of the last applied event. */
  checkpoint: string;
  eventsApplied: number;
  lagEvents: number;
  lagSeconds: number;
  updatedAt: string;
  lastError: string | null;
  lastReplay: ReplayRun | null;
}

export interface ProjectionsOverview {
  projections: ProjectionState[];
  /** Committed events an open transaction holds back from every projection. */
  heldBackEvents: number;
  heldBackSeconds: number;
  holder: XminHolder | null;
}
