/**
 * Health probes in the API's envelope:
 * - GET /api/health: the original probe, 200 while the database answers (503 otherwise);
 * - GET /api/health/live: the process answers (nothing is checked: a restart cannot fix the database);
 * - GET /api/health/ready: the database answers, migrations are current and no projection lags
 *   past the limit (audit/readiness.ts); 503 `not_ready` with every check and what it found.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { checkReadiness } from '../../audit/index.ts';
import { ok } from '../envelope.ts';
import { API_ERRORS } from '../errors.ts';

export interface HealthRouteOptions {
  db: Kysely<unknown>;
  /** READY_MAX_PROJECTION_LAG_SECONDS. */
  maxProjectionLagSeconds: number;
}

export function registerHealthRoutes(app: FastifyInstance, options: HealthRouteOptions): void {
  app.get('/api/health', async (_request, reply) => {
    await sql`select 1`.execute(options.db);
    return ok(reply, 'ok', { database: 'up' });
  });
  app.get('/api/health/live', async (_request, reply) => ok(reply, 'live'));
  app.get('/api/health/ready', async (_request, reply) => {
    const report = await checkReadiness(options.db, { maxProjectionLagSeconds: options.maxProjectionLagSeconds });
    if (report.ready) return ok(reply, 'ready', { checks: report.checks });
    const failed = Object.entries(report.checks)
      .filter(([, check]) => !check.ok)
      .map(([name, check]) => `${name}: ${check.detail}`);
    reply.code(API_ERRORS.not_ready.status);
    return {
      success: false,
      message: `${API_ERRORS.not_ready.message}: ${failed.join('; ')}`,
      code: 'not_ready',
      data: { checks: report.checks },
    };
  });
}
