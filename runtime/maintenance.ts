/**
 * The ledger's housekeeping on the workers: a daily pg-boss job that expires idempotency keys
 * past their retention (ledger/idempotency-retention.ts). Every worker process schedules it;
 * pg-boss sends it once a day however many do (runtime/periodic-jobs.test.ts), and the queue is
 * a singleton besides, so a slow run is not joined by a second.
 */
import type { Kysely } from 'kysely';
import { expireIdempotencyKeys } from '../ledger/index.ts';
import type { JobBoss, QueueSpec } from '../platform/jobs.ts';
import { fallbackLogger, type Logger } from '../platform/logger.ts';

export const EXPIRE_IDEMPOTENCY_KEYS_QUEUE = 'ledger.expire-idempotency-keys';
/** Daily, off the hour. */
const EXPIRY_CRON = '17 3 * * *';

export const maintenanceQueues: readonly QueueSpec[] = [
  { name: EXPIRE_IDEMPOTENCY_KEYS_QUEUE, policy: 'singleton', retryLimit: 2, expireInSeconds: 900 },
];

/** Same name, no key, from every scheduling worker: one schedule row, one job per day (see scheduleCatchUp). */
export async function scheduleIdempotencyKeyExpiry(boss: JobBoss): Promise<void> {
  await boss.schedule(EXPIRE_IDEMPOTENCY_KEYS_QUEUE, EXPIRY_CRON);
}

export async function startLedgerMaintenance(
  db: Kysely<unknown>,
  boss: JobBoss,
  options: { schedule?: boolean; log?: Logger } = {},
): Promise<() => Promise<void>> {
  const log = (options.log ?? fallbackLogger).child({ component: 'maintenance' });
  await boss.work(EXPIRE_IDEMPOTENCY_KEYS_QUEUE, async ([job]) => {
    const expired = await expireIdempotencyKeys(db);
    log.info({ jobId: job?.id, expired }, `${expired} idempotency keys past their retention expired`);
  });
  if (options.schedule ?? true) await scheduleIdempotencyKeyExpiry(boss);
  return async () => {
    await boss.offWork(EXPIRE_IDEMPOTENCY_KEYS_QUEUE);
  };
}
