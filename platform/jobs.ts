/**
 * Background jobs on pg-boss, in the same Postgres as the ledger. Jobs sent with
 * `sendInTransaction` join the caller's transaction: they exist only if it commits.
 */
import { PgBoss, fromKysely, type KyselyTransactionLike, type SendOptions } from 'pg-boss';
import { fallbackLogger, type Logger } from './logger.ts';

export interface QueueSpec {
  name: string;
  policy?: 'standard' | 'short' | 'singleton' | 'stately';
  retryLimit?: number;
  expireInSeconds?: number;
}

export type JobBoss = PgBoss;

/**
 * The app's pg-boss, on the runtime role's connection. It must not migrate: that is DDL, done
 * by `installJobQueues` in the owner's migration run (with migrate off pg-boss only checks
 * its schema version, and runs none of its background index builds). What it still does
 * under the runtime role is plain DML on its tables; its supervisor finds no index it owns to
 * rebuild, so it only reports bloat.
 */
export function createJobBoss(
  connectionString: string,
  options: {
    supervise?: boolean;
    schedule?: boolean;
    max?: number;
    /** pg-boss's cron pass and forwarder periods (defaults 30 s and 5 s); tests shorten them. */
    cronMonitorIntervalSeconds?: number;
    cronWorkerIntervalSeconds?: number;
  } = {},
): PgBoss {
  return new PgBoss({
    connectionString,
    max: options.max ?? 4,
    supervise: options.supervise ?? true,
    schedule: options.schedule ?? true,
    migrate: false,
    ...(options.cronMonitorIntervalSeconds ? { cronMonitorIntervalSeconds: options.cronMonitorIntervalSeconds } : {}),
    ...(options.cronWorkerIntervalSeconds ? { cronWorkerIntervalSeconds: options.cronWorkerIntervalSeconds } : {}),
  });
}

/** Installs (or upgrades) pg-boss's schema and creates the queues that do not exist yet. As the owner. */
export async function installJobQueues(
  connectionString: string,
  queues: readonly QueueSpec[],
  log: Logger = fallbackLogger,
): Promise<void> {
  const boss = new PgBoss({ connectionString, max: 1, supervise: false, schedule: false, migrate: true });
  boss.on('error', (error) => log.error({ component: 'jobs', err: error }, 'pg-boss error'));
  await boss.start();
  try {
    for (const queue of queues) {
      const { name, ...options } = queue;
      if (!(await boss.getQueue(name))) await boss.createQueue(name, options);
    }
  } finally {
    await boss.stop({ graceful: false });
  }
}

export async function sendInTransaction(
  boss: PgBoss,
  trx: KyselyTransactionLike,
  queue: string,
  data: object,
  options: SendOptions = {},
): Promise<void> {
  await boss.send(queue, data, { ...options, db: fromKysely(trx) });
}
