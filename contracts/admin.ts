/**
 * The admin and operator API (/api/admin/*, and the deposit review under /api/transactions):
 * its request schemas, parsed once at the edge by api/routes/admin/ and used by the web app's
 * admin forms for the same messages, and its reply shapes, shared with the web app's admin
 * screens (the web app imports wire types from contracts/ only, never from server code).
 * Money is rupees as JSON numbers, with exact paise as decimal strings where auditors need them.
 *
 * The lists and limits below restate the ledger's and the projections' (contracts/ imports no
 * server code); contracts/admin.test.ts fails when they part.
 */
import { z } from 'zod';

export const ADMIN_ACTIONS = [
  'suspend',
  'activate',
  'settle',
  'fail',
  'reverse',
  'replay',
  'request_approval',
  'reject_approval',
] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];

export const APPROVAL_STATES = ['pending', 'approved', 'rejected'] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

/** What can be reversed: a completed transfer, a settled deposit, a paid money request. */
export const REVERSAL_KINDS = ['transfer', 'deposit', 'request'] as const;
export type ReversalKind = (typeof REVERSAL_KINDS)[number];

/** A reversal's or a failed deposit's reason, trimmed (the ledger re-checks it). */
export const MIN_REASON_LENGTH = 3;
export const MAX_REASON_LENGTH = 500;

/** Every event type the ledger appends (ledger/events.ts). */
export const EVENT_TYPES = [
  'WalletOpened',
  'DepositRequested',
  'DepositSettled',
  'DepositFailed',
  'TransferCompleted',
  'MoneyRequested',
  'MoneyRequestAccepted',
  'MoneyRequestRejected',
  'TransferReversed',
  'DepositReversed',
  'MoneyRequestPaymentReversed',
] as const;

export const PROJECTION_NAMES = ['accounts', 'history', 'money_requests', 'statements'] as const;

// ---- requests --------------------------------------------------------------------------

export const reasonSchema = z
  .string({ error: 'A reason is required' })
  .trim()
  .min(MIN_REASON_LENGTH, `A reason of at least ${MIN_REASON_LENGTH} characters is required`)
  .max(MAX_REASON_LENGTH, `Reason must be at most ${MAX_REASON_LENGTH} characters`);

/** An optional note (replays, rejected approvals): no minimum. */
const noteSchema = z.object({ reason: z.string().trim().max(MAX_REASON_LENGTH).optional() });

const idSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'Invalid id');

const STREAM_OF_REVERSAL = /^(transfer|deposit|request)-([A-Za-z0-9_-]{1,64})$/;

/** Either the stream (`transfer-<id>`, `deposit-<id>`, `request-<id>`) or the transaction id and its kind. */
export const reverseSchema = z
  .object({
    streamId: z.string().trim().max(80).optional(),
    transactionId: idSchema.optional(),
    kind: z.enum(REVERSAL_KINDS).optional(),
    reason: reasonSchema,
  })
  .transform((body, context) => {
    if (body.streamId) {
      const match = STREAM_OF_REVERSAL.exec(body.streamId);
      const kind = REVERSAL_KINDS.find((candidate) => candidate === match?.[1]);
      if (kind) return { kind, transactionId: match?.[2] ?? '', reason: body.reason };
      context.addIssue({ code: 'custom', message: 'streamId must name a transfer, deposit or request stream' });
      return z.NEVER;
    }
    if (body.transactionId && body.kind)
      return { kind: body.kind, transactionId: body.transactionId, reason: body.reason };
    context.addIssue({
      code: 'custom',
      message: 'Give streamId, or transactionId and kind (transfer, deposit or request)',
    });
    return z.NEVER;
  });
export type ReversePayload = z.input<typeof reverseSchema>;

export const settleDepositSchema = z.object({
  depositId: z.string({ error: 'depositId is required' }).trim().min(1, 'depositId is required').max(64),
});
export const failDepositSchema = settleDepositSchema.extend({ reason: reasonSchema });

export const approvalListQuerySchema = z.object({
  state: z.enum(APPROVAL_STATES).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const approvalParamsSchema = z.object({
  id: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'Invalid approval id'),
});
export const approvalRejectBodySchema = noteSchema;

const pageLimit = (fallback: number, max: number) => z.coerce.number().int().min(1).max(max).default(fallback);
const positionSchema = z
  .string()
  .regex(/^\d{1,18}$/, 'Invalid position')
  .transform(BigInt);
const dateSchema = z.coerce.date({ error: 'Invalid date' });
const eventTypeSchema = z.enum(EVENT_TYPES);

export const auditTrailQuerySchema = z.object({
  before: z
    .string()
    .regex(/^\d{1,18}$/)
    .transform(BigInt)
    .optional(),
  limit: pageLimit(50, 200),
  action: z.enum(ADMIN_ACTIONS).optional(),
  actorId: idSchema.optional(),
});

export const accountParamsSchema = z.object({
  accountId: z
    .string()
    .min(1)
    .max(80)
    .regex(/^[A-Za-z0-9_:-]+$/, 'Invalid account id'),
});

export const statementQuerySchema = z.object({
  /** Read-your-writes: answer once the statements have applied this checkpoint (`<tx_id>.<position>`). */
  minPosition: z
    .string()
    .regex(/^\d+\.\d+$/)
    .max(60)
    .optional(),
  from: dateSchema.optional(),
  to: dateSchema.optional(),
  /** One event type or a comma-separated list. */
  type: z
    .string()
    .max(400)
    .optional()
    .transform((value, context) => {
      if (!value) return undefined;
      const types = value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
      for (const type of types) {
        if (!eventTypeSchema.safeParse(type).success)
          context.addIssue({ code: 'custom', message: `Unknown event type ${type}` });
      }
      return types;
    }),
  direction: z.enum(['credit', 'debit']).optional(),
  after: positionSchema.optional(),
  limit: pageLimit(100, 1_000),
});

/** Keyset pages by position: the account's events, pending deposits. */
export const positionPageQuerySchema = z.object({ after: positionSchema.optional(), limit: pageLimit(100, 1_000) });

export const explorerQuerySchema = z.object({
  stream: z.string().max(100).optional(),
  type: eventTypeSchema.optional(),
  actor: z.string().max(100).optional(),
  from: dateSchema.optional(),
  to: dateSchema.optional(),
  after: positionSchema.optional(),
  limit: pageLimit(50, 500),
});

export const eventParamsSchema = z.object({ position: positionSchema });

export const projectionParamsSchema = z.object({
  name: z.enum(PROJECTION_NAMES, { error: `Unknown projection; one of ${PROJECTION_NAMES.join(', ')}` }),
});
export const replayBodySchema = noteSchema;

// ---- replies ---------------------------------------------------------------------------

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

export interface RawEventPage {
  items: RawEvent[];
  /** Pass as `after` for the next page; null on the last page. */
  nextAfter: string | null;
}

/** A bank-transfer or UPI deposit waiting for an admin to settle or fail it. */
export interface PendingDeposit {
  depositId: string;
  walletId: string;
  ownerName: string | null;
  method: string;
  /** Rupees. */
  amount: number;
  reference: string;
  requestedAt: string;
  position: string;
}

export interface PendingDepositPage {
  items: PendingDeposit[];
  nextAfter: string | null;
}

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
