/**
 * The API process (`npm start`): the system, the server secrets, the first admin, the card
 * provider, one shared read-your-writes listener, the read replicas' pools (READ_DATABASE_URL)
 * and the HTTP app with the built web app;
 * with RUN_WORKERS (the default) also the projection workers and the mail worker, so one
 * process is the whole wallet. Built here, listening only when asked.
 */
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { appConfigFrom, buildApp } from '../api/app.ts';
import { ensureFirstAdmin, resolveJwtSecret, resolvePinPepper } from '../identity/index.ts';
import type { Config } from '../platform/config.ts';
import { openReadReplica } from '../platform/database.ts';
import { lifecycleLog, type Logger } from '../platform/logger.ts';
import { createCheckpointWaiter, startProjectionWorkers, type StopWorkers } from '../projections/index.ts';
import { createCardProvider } from '../providers/card/index.ts';
import { startLedgerMaintenance } from './maintenance.ts';
import { startMailDelivery, type MailDelivery } from './mail.ts';
import { addJobQueueMetrics, createApiProcessMetrics, type ApiProcessMetrics } from './metrics.ts';
import { databaseDescription, startProcess, type System } from './system.ts';

const WEB_DIST_DIR = fileURLToPath(new URL('../web/dist/', import.meta.url));

export interface ApiProcess {
  app: FastifyInstance;
  /** Listens on HOST:PORT and says where the wallet is running. */
  listen(): Promise<void>;
  /** Stops taking requests, then the workers, then the database connections. */
  stop(signal: string): Promise<void>;
}

/** What this process runs, for production mode's checks: RUN_WORKERS=false serves the API alone. */
export function apiRole(config: Pick<Config, 'RUN_WORKERS'>): 'all' | 'api' {
  return config.RUN_WORKERS ? 'all' : 'api';
}

/**
 * Starts everything but the listener. In production mode without a first admin's password
 * this throws ProductionRefusal, after a clean stop; the entry point prints why and exits.
 */
export function startApiProcess(config: Config): Promise<ApiProcess> {
  const metrics = createApiProcessMetrics();
  return startProcess(config, apiRole(config), (system) => assemble(config, system, metrics), {
    onAppendBatch: metrics.onAppendBatch,
  });
}

async function assemble(config: Config, system: System, metrics: ApiProcessMetrics): Promise<ApiProcess> {
  const secrets = { jwtSecret: await resolveJwtSecret(config), pinPepper: await resolvePinPepper(config) };
  const lifecycle = lifecycleLog(system.log);
  await ensureFirstAdmin(system.db, system.ledger, config, lifecycle);
  const workers = config.RUN_WORKERS ? await startWorkers(config, system, secrets.jwtSecret) : undefined;
  if (workers) addJobQueueMetrics(metrics.registry, system.boss);
  const replicas = openReplicas(config, system.log);
  const checkpoints = createCheckpointWaiter({ connectionString: system.listenUrl });
  const app = await buildApp({
    config: { ...appConfigFrom(config, secrets), webDistDir: WEB_DIST_DIR },
    db: system.db,
    pool: system.pool,
    checkpoints,
    live: { feed: checkpoints },
    boss: system.boss,
    ledger: system.ledger,
    card: createCardProvider(config),
    replicas,
    metrics: metrics.registry,
    log: system.log,
  });
  return {
    app,
    listen: async () => {
      await app.listen({ port: config.PORT, host: config.HOST });
      lifecycle.info(
        { url: config.PUBLIC_URL },
        `Wallet is running at ${config.PUBLIC_URL} (database: ${databaseDescription(config)}; workers: ${config.RUN_WORKERS ? 'in this process' : 'separate'})`,
      );
    },
    stop: async (signal) => {
      lifecycle.info({ signal }, 'shutting down');
      await app.close();
      await workers?.stopProjections();
      await workers?.stopMaintenance();
      await checkpoints.close();
      await Promise.all(replicas.map((replica) => replica.destroy()));
      workers?.mail.stop();
      await system.stop();
    },
  };
}

/** One pool per READ_DATABASE_URL replica (platform's `openReadReplica`: bounded connect and statements). */
function openReplicas(config: Config, log: Logger): Kysely<unknown>[] {
  return config.READ_DATABASE_URL.map((url) => openReadReplica(url, { applicationName: 'wallet-api-reads', log }));
}

interface InProcessWorkers {
  stopProjections: StopWorkers;
  mail: MailDelivery;
  stopMaintenance: () => Promise<void>;
}

/** What `npm run worker` runs, in this process instead. */
async function startWorkers(config: Config, system: System, jwtSecret: string): Promise<InProcessWorkers> {
  const mail = await startMailDelivery(config, system.boss, jwtSecret, system.log);
  const stopProjections = await startProjectionWorkers({
    db: system.db,
    connectionString: system.listenUrl,
    boss: system.boss,
    log: system.log,
  });
  const stopMaintenance = await startLedgerMaintenance(system.db, system.boss, { log: system.log });
  return { stopProjections, mail, stopMaintenance };
}
