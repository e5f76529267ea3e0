/**
 * The composition root: refuses production mode's unsafe defaults, opens the database
 * (embedded or DATABASE_URL), migrates it when it may (an owner connection:
 * DATABASE_OWNER_URL, or the embedded superuser) or else checks that migrations are current,
 * in production mode refuses to serve on a role that could rewrite the ledger, starts
 * pg-boss and wires the ledger to the projections' wake-ups, all on the runtime role's
 * connection. Every process (API, worker, operator commands) starts from this.
 */
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Config } from '../platform/config.ts';
import type pg from 'pg';
import { openDatabase, tablesView } from '../platform/database.ts';
import { createJobBoss, type JobBoss } from '../platform/jobs.ts';
import { assertMigrationsCurrent, migrateDatabase } from '../platform/migrate.ts';
import { assertRuntimePrivileges, assertSafeForProduction, type ProcessRole } from '../platform/production.ts';
import type { Ledger, LedgerTables } from '../ledger/index.ts';
import { openDatabaseServer, type DatabaseServer } from '../platform/database-server.ts';
import { createLogger, stderrDestination, type Logger } from '../platform/logger.ts';
import { createWiredLedger, type WiredLedgerOptions } from './ledger.ts';
import { installation } from './installation.ts';

export interface System {
  config: Config;
  databaseUrl: string;
  /**
   * For the process's LISTEN connections (wake-ups, read-your-writes), the only ones that keep
   * session state: LISTEN_DATABASE_URL (direct, past a transaction-mode pooler), else databaseUrl.
   */
  listenUrl: string;
  db: Kysely<unknown>;
  pool: pg.Pool;
  boss: JobBoss;
  ledger: Ledger;
  /** The process's logger: every part of it logs through a child of this one. */
  log: Logger;
  stop(): Promise<void>;
}

/** The `service` of a process's log lines: `npm start` is the api (with its in-process workers), `npm run worker` the worker. */
export function serviceName(role: ProcessRole): 'api' | 'worker' | 'cli' {
  return role === 'all' ? 'api' : role;
}

/**
 * The process's logger, from LOG_LEVEL: JSON lines on stdout (pino); on stderr for a one-shot
 * command (`cli`), whose stdout is its answer to the operator.
 */
export function processLogger(config: Pick<Config, 'LOG_LEVEL'>, role: ProcessRole): Logger {
  const destination = role === 'cli' ? stderrDestination() : undefined;
  return createLogger(serviceName(role), { level: config.LOG_LEVEL, ...(destination ? { destination } : {}) });
}

export interface SystemOptions extends Omit<WiredLedgerOptions, 'log'> {
  role: ProcessRole;
  log?: Logger;
}

export async function startSystem(config: Config, options: SystemOptions): Promise<System> {
  // The entry points print these and exit first; this keeps any other caller from skipping them.
  assertSafeForProduction(config, options.role);
  const log = options.log ?? processLogger(config, options.role);
  const server: DatabaseServer = await openDatabaseServer({
    databaseUrl: config.DATABASE_URL,
    databaseOwnerUrl: config.DATABASE_OWNER_URL,
    dataDir: config.DATA_DIR,
    embeddedPort: config.EMBEDDED_POSTGRES_PORT,
    log,
  });
  try {
    await prepareSchema(server, log);
    const { db, pool } = openDatabase<unknown>({
      connectionString: server.url,
      maxConnections: 20,
      applicationName: `wallet-${options.role}`,
      log,
    });
    // Production mode: a serving process refuses a role that could rewrite the ledger (the
    // owner, a superuser), before it writes anything - pg-boss's schema included.
    if (options.role !== 'cli') {
      try {
        await assertRuntimePrivileges(config, db, installation.schemaPolicies);
      } catch (error) {
        await db.destroy();
        throw error;
      }
    }
    const boss = createJobBoss(server.url, {
      supervise: options.role !== 'cli',
      schedule: options.role === 'all' || options.role === 'worker',
    });
    const jobsLog = log.child({ component: 'jobs' });
    boss.on('error', (error) => {
      // 57P01: the database server is shutting down (Ctrl-C reaches the embedded Postgres too).
      if ((error as { code?: string }).code === '57P01') return;
      jobsLog.error({ err: error }, 'pg-boss error');
    });
    await boss.start();
    const ledger = createWiredLedger(tablesView<LedgerTables>(db), { onAppendBatch: options.onAppendBatch, log });
    return {
      config,
      databaseUrl: server.url,
      listenUrl: config.LISTEN_DATABASE_URL ?? server.url,
      db,
      pool,
      boss,
      ledger,
      log,
      stop: async () => {
        await boss.stop({ graceful: true, timeout: 5_000 });
        await ledger.wakeUps.flush();
        await db.destroy();
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/**
 * Starts the system and what a process builds on it; when building fails the system is
 * stopped before the error goes on (a ProductionRefusal found at start-up then ends a process
 * that has already let go of its database, embedded server included).
 */
export async function startProcess<Process>(
  config: Config,
  role: ProcessRole,
  build: (system: System) => Promise<Process>,
  options: WiredLedgerOptions = {},
): Promise<Process> {
  const system = await startSystem(config, { role, ...options });
  try {
    return await build(system);
  } catch (error) {
    await system.stop();
    throw error;
  }
}

/** The runtime role may not change the schema: only a process with the owner's connection migrates. */
async function prepareSchema(server: DatabaseServer, log: Logger): Promise<void> {
  if (server.ownerUrl) await migrateDatabase(server.ownerUrl, installation, { runtimeUrl: server.url, log });
  else await assertMigrationsCurrent(server.url);
}

/** Where the data is, for the start-up line of each process. */
export function databaseDescription(config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>): string {
  return config.DATABASE_URL ? 'DATABASE_URL' : `embedded Postgres in ${path.join(config.DATA_DIR, 'postgres')}`;
}
