/**
 * Operations: the audit trail of admin actions, the trial balance and verify runs, pending
 * deposits waiting for review (read or run by audit/), projection status and replays
 * (operations/).
 */
import {
  auditTrailPageSchema,
  auditTrailQuerySchema,
  pendingDepositPageSchema,
  positionPageQuerySchema,
  projectionParamsSchema,
  projectionsOverviewSchema,
  replayBodySchema,
  replayRunSchema,
  trialBalanceSchema,
  verifyRunSchema,
  verifyStartedSchema,
} from '../../../contracts/admin.ts';
import {
  listAdminActions,
  listPendingDeposits,
  pendingDepositsCsv,
  readTrialBalance,
  runVerify,
  startVerify,
} from '../../../audit/index.ts';
import { latestReplay, readProjectionsOverview, requestProjectionReplay } from '../../../operations/index.ts';
import { requireAdmin } from '../../auth/authenticate.ts';
import { fileReply, withData } from '../../docs.ts';
import { ok } from '../../envelope.ts';
import { ApiError } from '../../errors.ts';
import { adminRoute, type AdminRouteDependencies } from './admin-route.ts';
import type { ZodRoutes } from '../../request-validation.ts';

type OperationsDependencies = Pick<AdminRouteDependencies, 'db' | 'boss'>;

export function registerOperationsRoutes(app: ZodRoutes, deps: OperationsDependencies): void {
  app.get(
    '/api/admin/audit-trail',
    adminRoute(app, {
      summary: 'Admin actions, newest first',
      description:
        'Suspend, activate, settle, fail, reverse and replay, with actor, time, target and reason. Keyset paging: ?before=<nextBefore>&limit=.',
      querystring: auditTrailQuerySchema,
      replies: { 200: withData(auditTrailPageSchema, 'One page of the audit trail') },
    }),
    async (request, reply) => {
      await requireAdmin(request);
      const query = request.query;
      return ok(reply, 'Audit trail fetched', await listAdminActions(deps.db, query));
    },
  );

  app.get(
    '/api/admin/trial-balance',
    adminRoute(app, {
      summary: 'Trial balance',
      description:
        'Sum of postings per account kind and in total (must be 0), funding-source balances per deposit method, and the last ledger verify run.',
      replies: { 200: withData(trialBalanceSchema, 'The trial balance') },
    }),
    async (request, reply) => {
      await requireAdmin(request);
      return ok(reply, 'Trial balance fetched', await readTrialBalance(deps.db));
    },
  );

  registerVerifyRoute(app, deps);

  app.get(
    '/api/admin/pending-deposits',
    adminRoute(app, {
      summary: 'Bank-transfer and UPI deposits waiting for review',
      description:
        'Settle with POST /api/transactions/settle-deposit {depositId}; fail with POST /api/transactions/fail-deposit {depositId, reason}.',
      querystring: positionPageQuerySchema,
      replies: { 200: withData(pendingDepositPageSchema, 'One page of pending deposits') },
    }),
    async (request, reply) => {
      await requireAdmin(request);
      const query = request.query;
      return ok(reply, 'Pending deposits fetched', await listPendingDeposits(deps.db, query));
    },
  );

  app.get(
    '/api/admin/pending-deposits.csv',
    adminRoute(app, {
      summary: 'Pending deposits as CSV, to match against a bank statement',
      description:
        'Every bank-transfer and UPI deposit waiting for review, oldest first, with what the payer entered (UPI ID, or account, IFSC and bank), the reference and the UPI `tr`; streamed in keyset batches.',
      replies: { 200: fileReply('text/csv', 'The pending deposits as CSV (an attachment)') },
    }),
    async (request, reply) => {
      await requireAdmin(request);
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', 'attachment; filename="pending-deposits.csv"');
      reply.header('cache-control', 'no-store');
      return reply.send(pendingDepositsCsv(deps.db));
    },
  );

  registerProjectionRoutes(app, deps);
}

function registerVerifyRoute(app: ZodRoutes, deps: OperationsDependencies): void {
  app.post(
    '/api/admin/trial-balance/verify',
    adminRoute(app, {
      summary: 'Run ledger verify now',
      description:
        'The same check as `npm run ledger -- verify`; recorded with its time. With `Prefer: respond-async` it runs in the background: 202 at once, and the recorded run reaches admins as the live `verify` event (a verify reads the whole ledger; a reply held that long is lost to proxies and impatience).',
      replies: {
        200: withData(verifyRunSchema, 'The verify run (ok false names each difference)'),
        202: withData(verifyStartedSchema, 'Started; the result is the live `verify` event'),
      },
    }),
    async (request, reply) => {
      const admin = await requireAdmin(request);
      if (/\brespond-async\b/i.test(String(request.headers.prefer ?? ''))) {
        const started = await startVerify(deps.db, `api:${admin.id}`, (error) =>
          request.log.error({ err: error }, 'background ledger verify failed'),
        );
        return ok(reply, 'Ledger verify started', started, 202);
      }
      const run = await runVerify(deps.db, `api:${admin.id}`);
      return ok(
        reply,
        run.ok ? 'Ledger verified: no differences' : `Ledger verify found ${run.differences.length} difference(s)`,
        run,
      );
    },
  );
}

function registerProjectionRoutes(app: ZodRoutes, deps: OperationsDependencies): void {
  app.get(
    '/api/admin/projections',
    adminRoute(app, {
      summary: 'Projection status',
      description:
        'Checkpoint, events applied, lag in events and seconds, last error, per projection; events held back by an open transaction; the latest replay of each.',
      replies: { 200: withData(projectionsOverviewSchema, 'The projections') },
    }),
    async (request, reply) => {
      await requireAdmin(request);
      return ok(reply, 'Projection status fetched', await readProjectionsOverview(deps.db));
    },
  );

  app.post(
    '/api/admin/projections/:name/replay',
    adminRoute(app, {
      summary: 'Replay one projection (background job)',
      description:
        'Queues a pg-boss job the workers run (replayProjection: rebuild into fresh tables, swap atomically). Poll GET on the same URL for state and processed/total.',
      params: projectionParamsSchema,
      body: replayBodySchema,
      absentBodyIsEmpty: true,
      replies: { 202: withData(replayRunSchema, 'Queued') },
    }),
    async (request, reply) => {
      const admin = await requireAdmin(request);
      const { name } = request.params;
      const body = request.body;
      const run = await requestProjectionReplay(deps, {
        projection: name,
        adminId: admin.id,
        reason: body.reason ?? null,
      });
      return ok(reply, `Replay of ${name} queued`, run, 202);
    },
  );

  app.get(
    '/api/admin/projections/:name/replay',
    adminRoute(app, {
      summary: 'Progress of the latest replay of one projection',
      description: 'state (queued, running, done, failed), processed and total events. Not rate limited (polled).',
      params: projectionParamsSchema,
      replies: { 200: withData(replayRunSchema, 'The latest replay') },
      errors: [404],
      rateLimited: false,
    }),
    async (request, reply) => {
      await requireAdmin(request);
      const { name } = request.params;
      const run = await latestReplay(deps.db, name);
      if (!run) throw new ApiError('not_found', `No replay of ${name} has been requested`);
      return ok(reply, 'Replay progress fetched', run);
    },
  );
}
