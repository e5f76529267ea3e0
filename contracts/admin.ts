/**
 * The admin and operator API (/api/admin/*, and the deposit review under /api/transactions):
 * its request schemas, parsed once at the edge by api/routes/admin/ and used by the web app's
 * admin forms for the same messages. Its reply shapes are contracts/admin-replies.ts,
 * re-exported here (the web app imports wire types from contracts/ only, never from server code).
 *
 * The lists and limits below restate the ledger's and the projections' (contracts/ imports no
 * server code); contracts/admin.test.ts fails when they part.
 */
import { z } from 'zod';
import { ADMIN_ACTIONS, APPROVAL_STATES } from './admin-replies.ts';

export * from './admin-replies.ts';

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
