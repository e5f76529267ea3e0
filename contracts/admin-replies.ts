/**
 * The admin and operator API's reply shapes (/api/admin/*, and the deposit review under
 * /api/transactions) as zod schemas: the types audit/ builds and the web app's admin screens
 * read are inferred from them, and the OpenAPI document is generated from them (api/docs.ts).
 * Money is rupees as JSON numbers, with exact paise as decimal strings where auditors need
 * them; positions, sequences and transaction ids of the log are decimal strings (bigint).
 * contracts/admin.ts re-exports everything here, so importers keep one path.
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
  // An admin read a customer's full ID number (contracts/identity-check.ts).
  'reveal_identification',
  // An admin rejected a customer's dispute of a payment, with a reason (contracts/disputes.ts).
  'reject_dispute',
] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];

export const APPROVAL_STATES = ['pending', 'approved', 'rejected'] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

export const REPLAY_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type ReplayState = (typeof REPLAY_STATES)[number];

const rupees = z.number().meta({ description: 'Rupees (two decimals)' });
const signedRupees = z.number().meta({ description: 'Rupees, signed: credits positive, debits negative' });
const paiseText = z.string().meta({ description: 'Exact paise as a decimal string' });
const isoTime = z.string().meta({ description: 'ISO 8601, UTC' });
const bigintText = z.string().meta({ description: 'A 64-bit integer as a decimal string' });
const checkpoint = z.string().meta({ description: 'Read-your-writes token `<tx_id>.<position>`' });

/** A money action of one admin waiting for (or decided by) a second admin. */
export const approvalRecordSchema = z.object({
  id: z.string(),
  action: z.enum(['settle', 'reverse']),
  target: z.string().meta({ description: 'The stream the action changes (deposit-<id>, transfer-<id>, request-<id>)' }),
  amount: rupees,
  reason: z.string().nullable().meta({ description: 'Reversals: the reason the requesting admin gave' }),
  requestedBy: z.string(),
  requestedByName: z.string().nullable(),
  requestedAt: isoTime,
  state: z.enum(APPROVAL_STATES),
  decidedBy: z.string().nullable(),
  decidedByName: z.string().nullable(),
  decidedAt: isoTime.nullable(),
  decisionReason: z.string().nullable(),
  customerId: z
    .string()
    .nullable()
    .meta({ description: "Whose money: a deposit's wallet, a transfer's sender, a request's payer" }),
  customerName: z.string().nullable(),
  method: z.string().nullable().meta({ description: 'bank_transfer, upi or card for a deposit; transfer; request' }),
});
export type ApprovalRecord = z.output<typeof approvalRecordSchema>;

/** 202 from a settlement or reversal above the approval threshold: filed, not done. */
export const awaitingApprovalSchema = z.object({
  status: z.literal('awaiting_approval'),
  approval: approvalRecordSchema,
});

export const approvedSchema = z.object({ approval: approvalRecordSchema, checkpoint });

export const reversalResultSchema = z.object({
  kind: z.enum(['transfer', 'deposit', 'request']),
  transactionId: z.string(),
  streamId: z.string(),
  position: bigintText.nullable(),
  checkpoint,
  replayed: z.boolean(),
});

export const statementLineSchema = z.object({
  sequence: bigintText,
  position: bigintText,
  recordedAt: isoTime,
  eventType: z.string(),
  streamId: z.string(),
  transactionId: z.string(),
  counterpartyId: z.string().nullable(),
  counterpartyName: z.string().nullable(),
  amount: signedRupees,
  balanceAfter: rupees,
});
export type StatementLine = z.output<typeof statementLineSchema>;

const nextAfter = bigintText
  .nullable()
  .meta({ description: 'Pass as `after` for the next page; null on the last page' });

export const statementPageSchema = z.object({
  accountId: z.string(),
  displayName: z.string().nullable(),
  kind: z.string().nullable(),
  balance: rupees.nullable(),
  items: z.array(statementLineSchema),
  nextAfter,
});
export type StatementPage = z.output<typeof statementPageSchema>;

export const rawEventSchema = z.object({
  position: bigintText,
  txId: bigintText,
  streamId: z.string(),
  streamVersion: z.number().int(),
  type: z.string(),
  data: z.unknown().meta({ description: 'As stored: money fields are decimal strings of paise' }),
  actorId: z.string().nullable(),
  idempotencyKey: z.string().nullable(),
  requestId: z.string().nullable(),
  command: z.string().nullable(),
  recordedAt: isoTime,
});
export type RawEvent = z.output<typeof rawEventSchema>;

export const eventPostingSchema = z.object({
  accountId: z.string(),
  accountName: z.string().nullable(),
  amount: signedRupees,
  accountSeq: bigintText.nullable(),
  balanceAfter: rupees.nullable(),
});
export type EventPosting = z.output<typeof eventPostingSchema>;

export const eventDetailSchema = rawEventSchema.extend({ postings: z.array(eventPostingSchema) });
export type EventDetail = z.output<typeof eventDetailSchema>;

export const rawEventPageSchema = z.object({ items: z.array(rawEventSchema), nextAfter });
export type RawEventPage = z.output<typeof rawEventPageSchema>;

/** What the payer entered with a bank-transfer or UPI deposit: what a bank statement shows of them. */
export const depositPayerSchema = z.object({
  upiId: z.string().nullable().meta({ description: "UPI: the payer's UPI ID" }),
  accountNumber: z.string().nullable().meta({ description: "Bank transfer: the payer's account number" }),
  ifscCode: z.string().nullable(),
  bankName: z.string().nullable(),
});
export type DepositPayer = z.output<typeof depositPayerSchema>;

/** A settlement filed for a second admin's approval (decision 0011), while it waits. */
export const waitingApprovalSchema = z.object({
  approvalId: z.string(),
  requestedBy: z.string(),
  requestedByName: z.string().nullable(),
  requestedAt: isoTime,
});

/** A bank-transfer or UPI deposit waiting for an admin to settle or fail it. */
export const pendingDepositSchema = z.object({
  depositId: z.string(),
  walletId: z.string(),
  ownerName: z.string().nullable(),
  method: z.string(),
  amount: rupees,
  reference: z.string(),
  requestedAt: isoTime,
  position: bigintText,
  payer: depositPayerSchema,
  awaitingApproval: waitingApprovalSchema
    .nullable()
    .meta({ description: "A settlement waiting for a second admin's approval; null when none is filed" }),
});
export type PendingDeposit = z.output<typeof pendingDepositSchema>;

export const pendingDepositPageSchema = z.object({ items: z.array(pendingDepositSchema), nextAfter });
export type PendingDepositPage = z.output<typeof pendingDepositPageSchema>;

export const verifyRunSchema = z.object({
  id: z.string(),
  ranAt: isoTime,
  source: z.string().meta({ description: 'cli, or api:<admin id>' }),
  ok: z.boolean(),
  differences: z.array(z.string()),
  totalPaise: paiseText,
  durationMs: z.number(),
});
export type VerifyRun = z.output<typeof verifyRunSchema>;

/** A verify run started in the background (`Prefer: respond-async`): its result comes as the live `verify` event. */
export const verifyStartedSchema = z.object({
  state: z.literal('running'),
  previousRunId: z
    .string()
    .nullable()
    .meta({ description: 'The latest run before this one: the result is the first run with a larger id' }),
});
export type VerifyStarted = z.output<typeof verifyStartedSchema>;

export const trialBalanceSchema = z.object({
  byKind: z.array(z.object({ kind: z.string(), accounts: z.number().int(), balance: rupees, balancePaise: paiseText })),
  total: rupees,
  totalPaise: paiseText,
  balanced: z.boolean(),
  fundingSources: z.array(
    z.object({
      method: z.string(),
      accountId: z.string(),
      balance: rupees,
      balancePaise: paiseText,
      postings: z.number().int(),
    }),
  ),
  lastVerify: verifyRunSchema.nullable(),
});
export type TrialBalance = z.output<typeof trialBalanceSchema>;

export const adminActionRecordSchema = z.object({
  id: z.string(),
  actorId: z.string(),
  actorName: z.string().nullable(),
  action: z.enum(ADMIN_ACTIONS),
  target: z.string(),
  reason: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  recordedAt: isoTime,
});
export type AdminActionRecord = z.output<typeof adminActionRecordSchema>;

export const auditTrailPageSchema = z.object({
  items: z.array(adminActionRecordSchema),
  nextBefore: bigintText
    .nullable()
    .meta({ description: 'Pass as `before` for the next (older) page; null on the last page' }),
});
export type AuditTrailPage = z.output<typeof auditTrailPageSchema>;

export const replayRunSchema = z.object({
  id: z.string(),
  projection: z.string(),
  state: z.enum(REPLAY_STATES),
  requestedBy: z.string(),
  processed: z.number().int(),
  total: z.number().int(),
  error: z.string().nullable(),
  requestedAt: isoTime,
  startedAt: isoTime.nullable(),
  finishedAt: isoTime.nullable(),
});
export type ReplayRun = z.output<typeof replayRunSchema>;

/** The session holding the snapshot xmin back (projectors wait behind it). */
export const xminHolderSchema = z.object({
  pid: z.number().int(),
  applicationName: z.string(),
  role: z.string().meta({ description: 'The role the session runs as' }),
  visible: z.boolean().meta({
    description:
      "False for another role's session this one may not see the details of (the runtime role is no superuser and not in pg_read_all_stats): state, age and query are then unknown",
  }),
  state: z.string(),
  transactionSeconds: z.number().nullable(),
  query: z.string(),
});
export type XminHolder = z.output<typeof xminHolderSchema>;

export const projectionStateSchema = z.object({
  name: z.string(),
  checkpoint: z.string().meta({ description: '`<tx_id>.<position>` of the last applied event' }),
  eventsApplied: z.number().int(),
  lagEvents: z.number().int(),
  lagSeconds: z.number(),
  updatedAt: isoTime,
  lastError: z.string().nullable(),
  lastReplay: replayRunSchema.nullable(),
});
export type ProjectionState = z.output<typeof projectionStateSchema>;

export const projectionsOverviewSchema = z.object({
  projections: z.array(projectionStateSchema),
  heldBackEvents: z.number().int().meta({ description: 'Committed events an open transaction holds back' }),
  heldBackSeconds: z.number(),
  holder: xminHolderSchema.nullable(),
});
export type ProjectionsOverview = z.output<typeof projectionsOverviewSchema>;
