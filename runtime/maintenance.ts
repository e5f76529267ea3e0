/**
 * The ledger's housekeeping on the workers: a daily pg-boss job that expires idempotency keys
 * past their retention (ledger/idempotency-retention.ts). A singleton queue, so two worker
 * processes scheduling it run it once.
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
  if (options.schedule ?? true) await boss.schedule(EXPIRE_IDEMPOTENCY_KEYS_QUEUE, EXPIRY_CRON);
  return async () => {
    await boss.offWork(EXPIRE_IDEMPOTENCY_KEYS_QUEUE);
  };
}
