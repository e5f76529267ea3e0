/**
 * The admin and operator API (/api/admin/*, and the deposit review under /api/transactions):
 * its request schemas, parsed once at the edge by api/routes/admin/ and used by the web app's
 * admin forms for the same messages. Its reply shapes are contracts/admin-replies.ts,
 * re-exported here (the web app imports wire types from contracts/ only, never from server code).
 *
 * The event types are the ledger's own lists (ledger/event-types.ts: pure data, like
 * ledger/limits.ts); the other lists and limits below restate the ledger's and the projections'
 * (contracts/ imports no other server code); contracts/admin.test.ts fails when they part.
 */
import { z } from 'zod';
import { LEDGER_EVENT_TYPES, POSTING_EVENT_TYPES, REVERSED_BY } from '../ledger/event-types.ts';
import { ADMIN_ACTIONS, APPROVAL_STATES } from './admin-replies.ts';
import { boundedText, checkpointToken } from './fields.ts';

export * from './admin-replies.ts';

/** What can be reversed: a completed transfer, a settled deposit, a paid money request. */
export const REVERSAL_KINDS = ['transfer', 'deposit', 'request'] as const;
export type ReversalKind = (typeof REVERSAL_KINDS)[number];

/** A reversal's or a failed deposit's reason, trimmed (the ledger re-checks it). */
export const MIN_REASON_LENGTH = 3;
export const MAX_REASON_LENGTH = 500;

/** Every event type the ledger appends; those that move money; each reversible one with its reversal. */
export const EVENT_TYPES = LEDGER_EVENT_TYPES;
export { POSTING_EVENT_TYPES, REVERSED_BY };

export const PROJECTION_NAMES = ['accounts', 'history', 'money_requests', 'statement_days'] as const;

// ---- requests --------------------------------------------------------------------------

export const reasonSchema = boundedText({
  required: 'A reason is required',
  max: MAX_REASON_LENGTH,
  tooLong: `Reason must be at most ${MAX_REASON_LENGTH} characters`,
  trim: true,
}).min(MIN_REASON_LENGTH, `A reason of at least ${MIN_REASON_LENGTH} characters is required`);

/** An optional note (replays, rejected approvals): no minimum. */
const noteSchema = z.object({ reason: boundedText({ max: MAX_REASON_LENGTH, trim: true }).optional() });

const idSchema = boundedText({ max: 64, trim: true })
  .min(1)
  .regex(/^[A-Za-z0-9_-]+$/, 'Invalid id');

const STREAM_OF_REVERSAL = /^(transfer|deposit|request)-([A-Za-z0-9_-]{1,64})$/;

/** Either the stream (`transfer-<id>`, `deposit-<id>`, `request-<id>`) or the transaction id and its kind. */
export const reverseSchema = z
  .object({
    streamId: boundedText({ max: 80, trim: true }).optional(),
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

/**
 * The ledger explorer and the approvals name a deposit by its stream, `deposit-<id>`; the id
 * is what the ledger knows it by. Both are accepted. Only a UUID is unwrapped: deposit ids
 * are UUIDs (card ones `card-<hex>`), so no real id is ever cut short.
 */
const DEPOSIT_STREAM = /^deposit-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

export const settleDepositSchema = z.object({
  depositId: boundedText({ required: 'depositId is required', max: 80, trim: true })
    .min(1, 'depositId is required')
    .transform((id) => DEPOSIT_STREAM.exec(id)?.[1] ?? id)
    .meta({ description: "The deposit's transaction id, or its stream id `deposit-<id>`" }),
});
export const failDepositSchema = settleDepositSchema.extend({ reason: reasonSchema });

export const approvalListQuerySchema = z.object({
  state: z.enum(APPROVAL_STATES).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const approvalParamsSchema = z.object({
  id: boundedText({ max: 64, trim: true })
    .min(1)
    .regex(/^[A-Za-z0-9_-]+$/, 'Invalid approval id'),
});
export const approvalRejectBodySchema = noteSchema;

const pageLimit = (fallback: number, max: number) => z.coerce.number().int().min(1).max(max).default(fallback);
/** A ledger position: a 64-bit integer, at most 18 digits. */
const positionSchema = boundedText({ max: 18, tooLong: 'Invalid position' })
  .regex(/^\d{1,18}$/, 'Invalid position')
  .transform(BigInt);
/** Read-your-writes checkpoint `<tx_id>.<position>`. */
const checkpointSchema = checkpointToken;
const dateSchema = z.coerce.date({ error: 'Invalid date' });
const eventTypeSchema = z.enum(EVENT_TYPES);

export const auditTrailQuerySchema = z.object({
  before: boundedText({ max: 18 })
    .regex(/^\d{1,18}$/)
    .transform(BigInt)
    .optional(),
  limit: pageLimit(50, 200),
  action: z.enum(ADMIN_ACTIONS).optional(),
  actorId: idSchema.optional(),
});

export const accountParamsSchema = z.object({
  accountId: boundedText({ max: 80 })
    .min(1)
    .regex(/^[A-Za-z0-9_:-]+$/, 'Invalid account id'),
});

export const statementQuerySchema = z.object({
  /** Read-your-writes: answer once the statements have applied this checkpoint (`<tx_id>.<position>`). */
  minPosition: checkpointSchema.optional(),
  from: dateSchema.optional(),
  to: dateSchema.optional(),
  /** One event type or a comma-separated list. */
  type: boundedText({ max: 400 })
    .optional()
    .transform((value, context) => {
      if (!value) return undefined;
      const types = value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
      const known: (typeof EVENT_TYPES)[number][] = [];
      for (const type of types) {
        const checked = eventTypeSchema.safeParse(type);
        if (checked.success) known.push(checked.data);
        else context.addIssue({ code: 'custom', message: `Unknown event type ${type}` });
      }
      return known;
    }),
  direction: z.enum(['credit', 'debit']).optional(),
  after: positionSchema.optional(),
  limit: pageLimit(100, 1_000),
});

/** Keyset pages by position: the account's events, pending deposits. */
export const positionPageQuerySchema = z.object({ after: positionSchema.optional(), limit: pageLimit(100, 1_000) });

export const explorerQuerySchema = z.object({
  stream: boundedText({ max: 100 }).optional(),
  type: eventTypeSchema.optional(),
  actor: boundedText({ max: 100 }).optional(),
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
