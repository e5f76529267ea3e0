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
import { healthSchema, readinessSchema } from '../../contracts/system.ts';
import { messageOnly, routeDocs, withData } from '../docs.ts';
import { ok } from '../envelope.ts';
import { API_ERRORS } from '../errors.ts';

export interface HealthRouteOptions {
  db: Kysely<unknown>;
  /** READY_MAX_PROJECTION_LAG_SECONDS. */
  maxProjectionLagSeconds: number;
}

export function registerHealthRoutes(app: FastifyInstance, options: HealthRouteOptions): void {
  const probe = { rateLimited: false } as const;
  const healthDocs = routeDocs({
    ...probe,
    summary: 'Health: the database answers',
    replies: { 200: withData(healthSchema, 'Healthy') },
    errors: [503],
  });
  const liveDocs = routeDocs({
    ...probe,
    summary: 'Liveness: the process answers',
    replies: { 200: messageOnly('Live') },
  });
  const readyDocs = routeDocs({
    ...probe,
    summary: 'Readiness: database, migrations and projection lag',
    replies: { 200: withData(readinessSchema, 'Ready, with every check') },
    errors: [503],
  });
  app.get('/api/health', healthDocs, async (_request, reply) => {
    await sql`select 1`.execute(options.db);
    return ok(reply, 'ok', { database: 'up' });
  });
  app.get('/api/health/live', liveDocs, async (_request, reply) => ok(reply, 'live'));
  app.get('/api/health/ready', readyDocs, async (_request, reply) => {
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
