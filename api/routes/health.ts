/**
 * Health probes in the API's envelope:
 * - GET /api/health: the original probe, 200 while the database answers (503 otherwise);
 * - GET /api/health/live: the process answers (nothing is checked: a restart cannot fix the database);
 * - GET /api/health/ready: the database answers, migrations are current and no projection lags
 *   past the limit (operations/readiness.ts); else 503 `not_ready`.
 *
 * Readiness is public (load balancers and orchestrators ask it) and outside the rate limit, so:
 * - the public gets up or down only (`{success:true,message:'ready'}` or 503 `not_ready`); every
 *   check and what it found (migration names, which projection lags and by how much) goes only
 *   to those who may read /metrics (`mayScrape`: the metrics token, or a loopback caller with
 *   no proxy configured and no forwarding header);
 * - its checks run at most once a second (READY_CACHE_MS): callers within that second, and
 *   callers at the same moment, share one run, so a flood costs one set of queries a second.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { checkReadiness, type ReadinessReport } from '../../operations/index.ts';
import { healthSchema, readinessSchema } from '../../contracts/system.ts';
import type { Clock } from '../../identity/index.ts';
import { mayScrape } from '../../platform/metrics.ts';
import { messageOnly, routeDocs, withData } from '../docs.ts';
import { ok } from '../envelope.ts';
import { API_ERRORS } from '../errors.ts';

/** How long one readiness answer is served before the checks run again. */
export const READY_CACHE_MS = 1_000;

export interface HealthRouteOptions {
  db: Kysely<unknown>;
  /** READY_MAX_PROJECTION_LAG_SECONDS. */
  maxProjectionLagSeconds: number;
  /** METRICS_TOKEN: its bearer sees the readiness checks from anywhere. */
  metricsToken: string | undefined;
  /** TRUST_PROXY_HOPS > 0: a loopback caller is the proxy, so it needs the token too. */
  behindProxy: boolean;
  /** Times the readiness cache. */
  clock: Clock;
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
    description:
      'Up or down for everyone; `data.checks` (and the failed checks in a 503 message) only with METRICS_TOKEN or from loopback without a proxy. Checked at most once a second.',
    replies: { 200: withData(readinessSchema.optional(), 'Ready (with every check for an operator)') },
    errors: [503],
  });
  const readiness = cachedReadiness(options);
  app.get('/api/health', healthDocs, async (_request, reply) => {
    await sql`select 1`.execute(options.db);
    return ok(reply, 'ok', { database: 'up' });
  });
  app.get('/api/health/live', liveDocs, async (_request, reply) => ok(reply, 'live'));
  app.get('/api/health/ready', readyDocs, async (request, reply) => {
    const report = await readiness();
    const operator = mayScrape(
      { headers: request.headers, ip: request.ip },
      { token: options.metricsToken, behindProxy: options.behindProxy },
    );
    if (!operator) {
      if (report.ready) return ok(reply, 'ready');
      reply.code(API_ERRORS.not_ready.status);
      return { success: false, message: API_ERRORS.not_ready.message, code: 'not_ready' };
    }
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

/** The readiness report, run at most once per READY_CACHE_MS; concurrent callers share the run. */
function cachedReadiness(options: HealthRouteOptions): () => Promise<ReadinessReport> {
  let last: { at: number; report: Promise<ReadinessReport> } | undefined;
  return () => {
    const now = options.clock.now().getTime();
    if (last && now >= last.at && now - last.at < READY_CACHE_MS) return last.report;
    const report = checkReadiness(options.db, { maxProjectionLagSeconds: options.maxProjectionLagSeconds });
    const entry = { at: now, report };
    last = entry;
    // A run that failed outright is not kept (checkReadiness reports a database away as a failed check).
    report.catch(() => {
      if (last === entry) last = undefined;
    });
    return report;
  };
}
