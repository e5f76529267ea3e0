/**
 * /api/admin/*: the admin and operator tools - corrections (reversals), the audit trail,
 * account audit (statements, CSV, raw events), the ledger explorer, the trial balance,
 * pending deposits, projection status and replays. Every route is admin-only
 * (`app.requireAdmin`: 401 without a session, 403 for users). Reads come from the read
 * tables and the log; the one command (reverse) goes through the ledger.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { REVERSAL_KINDS, MAX_REASON_LENGTH, MIN_REASON_LENGTH, isLedgerRejection, type Ledger, type ReversalKind } from '../../ledger/index.ts';
import { readDisplayName, type ReadTables } from '../../projections/index.ts';
import { tablesView } from '../../platform/database.ts';
import type { Kysely } from 'kysely';
import type { JobBoss } from '../../platform/jobs.ts';
import { isProjectionName, PROJECTION_NAMES, type ProjectionName } from '../../projections/index.ts';
import {
  ADMIN_ACTIONS,
  latestReplay,
  listAdminActions,
  listEvents,
  listPendingDeposits,
  performAdminMoneyAction,
  readAccountEvents,
  readEvent,
  readProjectionsOverview,
  readStatementPage,
  readTrialBalance,
  requestProjectionReplay,
  runVerify,
  statementCsv,
  type StatementFilter,
} from '../../audit/index.ts';
import { LEDGER_EVENT_TYPES } from '../../ledger/index.ts';
import { requireAdmin } from '../auth/authenticate.ts';
import { ok } from '../envelope.ts';
import { ApiError } from '../errors.ts';
import { commandContext } from '../money-context.ts';
import { adminMoney, awaitingApproval, registerApprovalRoutes } from './admin-approvals.ts';
import { zodDocs, type ZodDocParts } from '../docs.ts';

export interface AdminRouteDependencies {
  db: Kysely<unknown>;
  ledger: Ledger;
  /** Replays are queued as jobs for the workers. */
  boss: JobBoss;
  /** Read-your-writes for the statement: waits (bounded) until the statements reflect a checkpoint. */
  awaitStatements?: (checkpoint: string) => Promise<unknown>;
  /** Reversals above this amount wait for a second admin. */
  approvalThresholdPaise: bigint;
}

export const ADMIN_TAG = 'admin';

const reasonSchema = z
  .string({ error: 'A reason is required' })
  .trim()
  .min(MIN_REASON_LENGTH, `A reason of at least ${MIN_REASON_LENGTH} characters is required`)
  .max(MAX_REASON_LENGTH, `Reason must be at most ${MAX_REASON_LENGTH} characters`);

const idSchema = z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'Invalid id');

/** Either the stream (`transfer-<id>`, `deposit-<id>`) or the transaction id and its kind. */
export const reverseSchema = z
  .object({
    streamId: z.string().trim().max(80).optional(),
    transactionId: idSchema.optional(),
    kind: z.enum(REVERSAL_KINDS).optional(),
    reason: reasonSchema,
  })
  .transform((body, context) => {
    if (body.streamId) {
      const match = /^(transfer|deposit|request)-([A-Za-z0-9_-]{1,64})$/.exec(body.streamId);
      if (match) return { kind: match[1] as ReversalKind, transactionId: match[2] ?? '', reason: body.reason };
      context.addIssue({ code: 'custom', message: 'streamId must name a transfer, deposit or request stream' });
      return z.NEVER;
    }
    if (body.transactionId && body.kind) return { kind: body.kind, transactionId: body.transactionId, reason: body.reason };
    context.addIssue({ code: 'custom', message: 'Give streamId, or transactionId and kind (transfer, deposit or request)' });
    return z.NEVER;
  });

const pageLimit = (fallback: number, max: number) => z.coerce.number().int().min(1).max(max).default(fallback);

const auditTrailQuery = z.object({
  before: z.string().regex(/^\d{1,18}$/).transform(BigInt).optional(),
  limit: pageLimit(50, 200),
  action: z.enum(ADMIN_ACTIONS).optional(),
  actorId: idSchema.optional(),
});

const positionSchema = z.string().regex(/^\d{1,18}$/, 'Invalid position').transform(BigInt);
const dateSchema = z.coerce.date({ error: 'Invalid date' });
const eventTypeSchema = z.enum(LEDGER_EVENT_TYPES as [string, ...string[]]);

const accountParams = z.object({ accountId: z.string().min(1).max(80).regex(/^[A-Za-z0-9_:-]+$/, 'Invalid account id') });

const statementQuery = z.object({
  /** Read-your-writes: answer once the statements have applied this checkpoint (`<tx_id>.<position>`). */
  minPosition: z.string().regex(/^\d+\.\d+$/).max(60).optional(),
  from: dateSchema.optional(),
  to: dateSchema.optional(),
  /** One event type or a comma-separated list. */
  type: z.string().max(400).optional().transform((value, context) => {
    if (!value) return undefined;
    const types = value.split(',').map((part) => part.trim()).filter(Boolean);
    for (const type of types) {
      if (!eventTypeSchema.safeParse(type).success) context.addIssue({ code: 'custom', message: `Unknown event type ${type}` });
    }
    return types;
  }),
  direction: z.enum(['credit', 'debit']).optional(),
  after: positionSchema.optional(),
  limit: pageLimit(100, 1_000),
});

const afterQuery = z.object({ after: positionSchema.optional(), limit: pageLimit(100, 1_000) });

const explorerQuery = z.object({
  stream: z.string().max(100).optional(),
  type: eventTypeSchema.optional(),
  actor: z.string().max(100).optional(),
  from: dateSchema.optional(),
  to: dateSchema.optional(),
  after: positionSchema.optional(),
  limit: pageLimit(50, 500),
});

const projectionParams = z.object({
  name: z.string().refine(isProjectionName, `Unknown projection; one of ${PROJECTION_NAMES.join(', ')}`).transform((name) => name as ProjectionName),
});

const replayBody = z.object({ reason: z.string().trim().max(MAX_REASON_LENGTH).optional() });

function statementFilter(accountId: string, query: z.infer<typeof statementQuery>): StatementFilter {
  return { accountId, from: query.from, to: query.to, eventTypes: query.type, direction: query.direction };
}

export async function registerAdminRoutes(app: FastifyInstance, deps: AdminRouteDependencies): Promise<void> {
  const reads = tablesView<ReadTables>(deps.db);
  const adminOnly = { preHandler: app.requireAdmin };
  const doc = (summary: string, description?: string, input: ZodDocParts = {}) => {
    const documented = zodDocs(input);
    return { ...documented, schema: { ...documented.schema, tags: [ADMIN_TAG], summary, ...(description ? { description } : {}), security: [{ bearerAuth: [] }] } };
  };

  app.post('/api/admin/reverse', { ...adminOnly, ...doc('Reverse a completed transfer, settled deposit or paid money request', 'Appends TransferReversed / DepositReversed / MoneyRequestPaymentReversed on the original stream with mirrored postings; the original stays. Body: {streamId} or {transactionId, kind: transfer|deposit|request}, and reason (3-500 chars).', { body: reverseSchema }) }, async (request, reply) => {
    const admin = await requireAdmin(request);
    const input = reverseSchema.parse(request.body ?? {});
    try {
      const outcome = await performAdminMoneyAction(adminMoney(deps), { action: 'reverse', reversal: input }, commandContext(request, admin.id));
      if (outcome.status === 'awaiting_approval') return awaitingApproval(reply, outcome.approval, deps.approvalThresholdPaise);
      return ok(reply, 'Transaction reversed', {
        kind: input.kind,
        transactionId: input.transactionId,
        streamId: outcome.streamId,
        position: outcome.positions[0] ?? null,
        checkpoint: outcome.checkpoint,
        replayed: outcome.replayed,
      });
    } catch (error) {
      if (isLedgerRejection(error) && error.code === 'insufficient_funds') {
        const account = error.details.account ?? '';
        const name = (await readDisplayName(reads, account)) ?? account;
        throw new ApiError('insufficient_funds', `Reversal would overdraw the wallet of ${name}`);
      }
      throw error;
    }
  });

  app.get('/api/admin/audit-trail', { ...adminOnly, ...doc('Admin actions, newest first', 'Suspend, activate, settle, fail, reverse and replay, with actor, time, target and reason. Keyset paging: ?before=<nextBefore>&limit=.', { querystring: auditTrailQuery }) }, async (request, reply) => {
    await requireAdmin(request);
    const query = auditTrailQuery.parse(request.query ?? {});
    return ok(reply, 'Audit trail fetched', await listAdminActions(deps.db, query));
  });

  registerApprovalRoutes(app, deps);

  // ---- account audit -----------------------------------------------------------------

  app.get('/api/admin/accounts/:accountId/statement', { ...adminOnly, ...doc('An account\'s statement', 'Every posting with running balance, counterparty, event type, position and time (read.statements). Filters: from, to (ISO dates), type (event types, comma-separated), direction (credit|debit). Keyset paging: after=<nextAfter>, limit.', { params: accountParams, querystring: statementQuery }) }, async (request, reply) => {
    await requireAdmin(request);
    const { accountId } = accountParams.parse(request.params);
    const query = statementQuery.parse(request.query ?? {});
    if (query.minPosition && deps.awaitStatements) await deps.awaitStatements(query.minPosition);
    return ok(reply, 'Statement fetched', await readStatementPage(deps.db, statementFilter(accountId, query), query));
  });

  app.get('/api/admin/accounts/:accountId/statement.csv', { ...adminOnly, ...doc('An account\'s statement as CSV (streamed)', 'Same filters as the statement; streamed in keyset batches, so any length downloads in bounded memory.', { params: accountParams, querystring: statementQuery }) }, async (request, reply) => {
    await requireAdmin(request);
    const { accountId } = accountParams.parse(request.params);
    const query = statementQuery.parse(request.query ?? {});
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="statement-${accountId.replace(/[^A-Za-z0-9_-]/g, '_')}.csv"`);
    reply.header('cache-control', 'no-store');
    return reply.send(statementCsv(deps.db, statementFilter(accountId, query)));
  });

  app.get('/api/admin/accounts/:accountId/events', { ...adminOnly, ...doc('The raw events of an account\'s streams', 'Wallet, transfer, deposit and request streams the account takes part in, with metadata (actor, idempotency key, request id, command). Keyset paging by position.', { params: accountParams, querystring: afterQuery }) }, async (request, reply) => {
    await requireAdmin(request);
    const { accountId } = accountParams.parse(request.params);
    const query = afterQuery.parse(request.query ?? {});
    return ok(reply, 'Events fetched', await readAccountEvents(deps.db, accountId, query));
  });

  // ---- ledger explorer ---------------------------------------------------------------

  app.get('/api/admin/events', { ...adminOnly, ...doc('Ledger explorer: events by stream, type, actor and time', 'Filters: stream, type, actor, from, to. Keyset paging by position: after=<nextAfter>, limit (no gaps or repeats).', { querystring: explorerQuery }) }, async (request, reply) => {
    await requireAdmin(request);
    const query = explorerQuery.parse(request.query ?? {});
    return ok(reply, 'Events fetched', await listEvents(deps.db, query, query));
  });

  app.get('/api/admin/events/:position', { ...adminOnly, ...doc('One event with its postings') }, async (request, reply) => {
    await requireAdmin(request);
    const { position } = z.object({ position: positionSchema }).parse(request.params);
    const event = await readEvent(deps.db, position);
    if (!event) throw new ApiError('not_found', 'Event not found');
    return ok(reply, 'Event fetched', event);
  });

  // ---- trial balance -----------------------------------------------------------------

  app.get('/api/admin/trial-balance', { ...adminOnly, ...doc('Trial balance', 'Sum of postings per account kind and in total (must be 0), funding-source balances per deposit method, and the last ledger verify run.') }, async (request, reply) => {
    await requireAdmin(request);
    return ok(reply, 'Trial balance fetched', await readTrialBalance(deps.db));
  });

  app.post('/api/admin/trial-balance/verify', { ...adminOnly, ...doc('Run ledger verify now', 'The same check as `npm run ledger -- verify`; recorded with its time.') }, async (request, reply) => {
    const admin = await requireAdmin(request);
    const run = await runVerify(deps.db, `api:${admin.id}`);
    return ok(reply, run.ok ? 'Ledger verified: no differences' : `Ledger verify found ${run.differences.length} difference(s)`, run);
  });

  // ---- pending deposits ----------------------------------------------------------------

  app.get('/api/admin/pending-deposits', { ...adminOnly, ...doc('Bank-transfer and UPI deposits waiting for review', 'Settle with POST /api/transactions/settle-deposit {depositId}; fail with POST /api/transactions/fail-deposit {depositId, reason}.', { querystring: afterQuery }) }, async (request, reply) => {
    await requireAdmin(request);
    const query = afterQuery.parse(request.query ?? {});
    return ok(reply, 'Pending deposits fetched', await listPendingDeposits(deps.db, query));
  });

  // ---- projections ---------------------------------------------------------------------

  app.get('/api/admin/projections', { ...adminOnly, ...doc('Projection status', 'Checkpoint, events applied, lag in events and seconds, last error, per projection; events held back by an open transaction; the latest replay of each.') }, async (request, reply) => {
    await requireAdmin(request);
    return ok(reply, 'Projection status fetched', await readProjectionsOverview(deps.db));
  });

  app.post('/api/admin/projections/:name/replay', { ...adminOnly, ...doc('Replay one projection (background job)', 'Queues a pg-boss job the workers run (replayProjection: rebuild into fresh tables, swap atomically). Poll GET on the same URL for state and processed/total.', { params: projectionParams, body: replayBody }) }, async (request, reply) => {
    const admin = await requireAdmin(request);
    const { name } = projectionParams.parse(request.params);
    const body = replayBody.parse(request.body ?? {});
    const run = await requestProjectionReplay(deps, { projection: name, adminId: admin.id, reason: body.reason ?? null });
    return ok(reply, `Replay of ${name} queued`, run, 202);
  });

  app.get('/api/admin/projections/:name/replay', { ...adminOnly, ...doc('Progress of the latest replay of one projection', 'state (queued, running, done, failed), processed and total events.', { params: projectionParams }) }, async (request, reply) => {
    await requireAdmin(request);
    const { name } = projectionParams.parse(request.params);
    const run = await latestReplay(deps.db, name);
    if (!run) throw new ApiError('not_found', `No replay of ${name} has been requested`);
    return ok(reply, 'Replay progress fetched', run);
  });
}
