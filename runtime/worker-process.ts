/**
 * The worker process (`npm run worker`): the projection workers, the mail worker and the
 * ledger's housekeeping (runtime/maintenance.ts) alone,
 * next to any number of API processes (the projector's checkpoint lock keeps one active
 * projector per projection). Its only HTTP is on WORKER_HEALTH_PORT, when set: the health
 * probes container healthchecks use and its own /metrics (platform/health-server.ts).
 */
import { sql } from 'kysely';
import { checkReadiness } from '../operations/index.ts';
import { resolveJwtSecret } from '../identity/index.ts';
import type { Config } from '../platform/config.ts';
import { lifecycleLog } from '../platform/logger.ts';
import { startHealthServer, type HealthServer } from '../platform/health-server.ts';
import { startProjectionWorkers } from '../projections/index.ts';
import { startMailDelivery } from './mail.ts';
import { startLedgerMaintenance } from './maintenance.ts';
import { createWorkerMetrics } from './metrics.ts';
import { databaseDescription, startProcess, type System } from './system.ts';

export interface WorkerProcess {
  /** Stops the health endpoint, the workers, then the database connections. */
  stop(signal: string): Promise<void>;
}

export function startWorkerProcess(config: Config): Promise<WorkerProcess> {
  return startProcess(config, 'worker', (system) => assemble(config, system));
}

async function assemble(config: Config, system: System): Promise<WorkerProcess> {
  const stopProjections = await startProjectionWorkers({
    db: system.db,
    connectionString: system.listenUrl,
    boss: system.boss,
    log: system.log,
  });
  const stopMaintenance = await startLedgerMaintenance(system.db, system.boss, { log: system.log });
  // The mail worker sends what the API enqueued (codes, "account verified"), sealed with the server secret.
  const mail = await startMailDelivery(config, system.boss, await resolveJwtSecret(config), system.log);
  const health = await startHealth(config, system);
  const lifecycle = lifecycleLog(system.log);
  lifecycle.info(
    `Projection and mail workers running (database: ${databaseDescription(config)}${health ? `; health: http://${config.HOST}:${health.port}/health` : ''})`,
  );
  return {
    stop: async (signal) => {
      lifecycle.info({ signal }, 'stopping workers');
      await health?.close();
      await stopProjections();
      await stopMaintenance();
      mail.stop();
      await system.stop();
    },
  };
}

/**
 * Live while it answers; ready like the API (database, migrations, projection lag: without
 * them no projection or mail job can make progress); /health while its database answers;
 * /metrics with the worker's own registry.
 */
async function startHealth(config: Config, system: System): Promise<HealthServer | undefined> {
  if (config.WORKER_HEALTH_PORT === undefined) return undefined;
  const { db } = system;
  return startHealthServer({
    port: config.WORKER_HEALTH_PORT,
    host: config.HOST,
    check: async () => void (await sql`select 1`.execute(db)),
    ready: () => checkReadiness(db, { maxProjectionLagSeconds: config.READY_MAX_PROJECTION_LAG_SECONDS }),
    metrics: { registry: createWorkerMetrics(system), token: config.METRICS_TOKEN },
  });
}
