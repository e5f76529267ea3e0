/**
 * /api/admin/*: the admin and operator tools - corrections (reversals), the audit trail,
 * account audit (statements, CSV, raw events), the ledger explorer, the trial balance,
 * pending deposits, projection status and replays. Every route is admin-only
 * (`app.requireAdmin`: 401 without a session, 403 for users). Reads come from the read
 * tables and the log; the one command (reverse) goes through the ledger.
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  accountParamsSchema,
  auditTrailQuerySchema,
  eventParamsSchema,
  explorerQuerySchema,
  positionPageQuerySchema,
  projectionParamsSchema,
  replayBodySchema,
  reverseSchema,
  statementQuerySchema,
} from '../../contracts/admin.ts';
import { isLedgerRejection, type Ledger } from '../../ledger/index.ts';
import { readDisplayName, type ReadTables } from '../../projections/index.ts';
import { tablesView } from '../../platform/database.ts';
import type { Kysely } from 'kysely';
import type { JobBoss } from '../../platform/jobs.ts';
import {
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

function statementFilter(accountId: string, query: z.infer<typeof statementQuerySchema>): StatementFilter {
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

  app.get('/api/admin/audit-trail', { ...adminOnly, ...doc('Admin actions, newest first', 'Suspend, activate, settle, fail, reverse and replay, with actor, time, target and reason. Keyset paging: ?before=<nextBefore>&limit=.', { querystring: auditTrailQuerySchema }) }, async (request, reply) => {
    await requireAdmin(request);
    const query = auditTrailQuerySchema.parse(request.query ?? {});
    return ok(reply, 'Audit trail fetched', await listAdminActions(deps.db, query));
  });

  registerApprovalRoutes(app, deps);

  // ---- account audit -----------------------------------------------------------------

  app.get('/api/admin/accounts/:accountId/statement', { ...adminOnly, ...doc('An account\'s statement', 'Every posting with running balance, counterparty, event type, position and time (read.statements). Filters: from, to (ISO dates), type (event types, comma-separated), direction (credit|debit). Keyset paging: after=<nextAfter>, limit.', { params: accountParamsSchema, querystring: statementQuerySchema }) }, async (request, reply) => {
    await requireAdmin(request);
    const { accountId } = accountParamsSchema.parse(request.params);
    const query = statementQuerySchema.parse(request.query ?? {});
    if (query.minPosition && deps.awaitStatements) await deps.awaitStatements(query.minPosition);
    return ok(reply, 'Statement fetched', await readStatementPage(deps.db, statementFilter(accountId, query), query));
  });

  app.get('/api/admin/accounts/:accountId/statement.csv', { ...adminOnly, ...doc('An account\'s statement as CSV (streamed)', 'Same filters as the statement; streamed in keyset batches, so any length downloads in bounded memory.', { params: accountParamsSchema, querystring: statementQuerySchema }) }, async (request, reply) => {
    await requireAdmin(request);
    const { accountId } = accountParamsSchema.parse(request.params);
    const query = statementQuerySchema.parse(request.query ?? {});
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="statement-${accountId.replace(/[^A-Za-z0-9_-]/g, '_')}.csv"`);
    reply.header('cache-control', 'no-store');
    return reply.send(statementCsv(deps.db, statementFilter(accountId, query)));
  });

  app.get('/api/admin/accounts/:accountId/events', { ...adminOnly, ...doc('The raw events of an account\'s streams', 'Wallet, transfer, deposit and request streams the account takes part in, with metadata (actor, idempotency key, request id, command). Keyset paging by position.', { params: accountParamsSchema, querystring: positionPageQuerySchema }) }, async (request, reply) => {
    await requireAdmin(request);
    const { accountId } = accountParamsSchema.parse(request.params);
    const query = positionPageQuerySchema.parse(request.query ?? {});
    return ok(reply, 'Events fetched', await readAccountEvents(deps.db, accountId, query));
  });

  // ---- ledger explorer ---------------------------------------------------------------

  app.get('/api/admin/events', { ...adminOnly, ...doc('Ledger explorer: events by stream, type, actor and time', 'Filters: stream, type, actor, from, to. Keyset paging by position: after=<nextAfter>, limit (no gaps or repeats).', { querystring: explorerQuerySchema }) }, async (request, reply) => {
    await requireAdmin(request);
    const query = explorerQuerySchema.parse(request.query ?? {});
    return ok(reply, 'Events fetched', await listEvents(deps.db, query, query));
  });

  app.get('/api/admin/events/:position', { ...adminOnly, ...doc('One event with its postings') }, async (request, reply) => {
    await requireAdmin(request);
    const { position } = eventParamsSchema.parse(request.params);
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

  app.get('/api/admin/pending-deposits', { ...adminOnly, ...doc('Bank-transfer and UPI deposits waiting for review', 'Settle with POST /api/transactions/settle-deposit {depositId}; fail with POST /api/transactions/fail-deposit {depositId, reason}.', { querystring: positionPageQuerySchema }) }, async (request, reply) => {
    await requireAdmin(request);
    const query = positionPageQuerySchema.parse(request.query ?? {});
    return ok(reply, 'Pending deposits fetched', await listPendingDeposits(deps.db, query));
  });

  // ---- projections ---------------------------------------------------------------------

  app.get('/api/admin/projections', { ...adminOnly, ...doc('Projection status', 'Checkpoint, events applied, lag in events and seconds, last error, per projection; events held back by an open transaction; the latest replay of each.') }, async (request, reply) => {
    await requireAdmin(request);
    return ok(reply, 'Projection status fetched', await readProjectionsOverview(deps.db));
  });

  app.post('/api/admin/projections/:name/replay', { ...adminOnly, ...doc('Replay one projection (background job)', 'Queues a pg-boss job the workers run (replayProjection: rebuild into fresh tables, swap atomically). Poll GET on the same URL for state and processed/total.', { params: projectionParamsSchema, body: replayBodySchema }) }, async (request, reply) => {
    const admin = await requireAdmin(request);
    const { name } = projectionParamsSchema.parse(request.params);
    const body = replayBodySchema.parse(request.body ?? {});
    const run = await requestProjectionReplay(deps, { projection: name, adminId: admin.id, reason: body.reason ?? null });
    return ok(reply, `Replay of ${name} queued`, run, 202);
  });

  app.get('/api/admin/projections/:name/replay', { ...adminOnly, ...doc('Progress of the latest replay of one projection', 'state (queued, running, done, failed), processed and total events.', { params: projectionParamsSchema }) }, async (request, reply) => {
    await requireAdmin(request);
    const { name } = projectionParamsSchema.parse(request.params);
    const run = await latestReplay(deps.db, name);
    if (!run) throw new ApiError('not_found', `No replay of ${name} has been requested`);
    return ok(reply, 'Replay progress fetched', run);
  });
}
