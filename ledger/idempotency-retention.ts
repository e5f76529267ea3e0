/**
 * How long the ledger remembers an idempotency key and the result it answered with: a
 * client retries a command within seconds or minutes, so a week is far past any retry, and
 * the table no longer grows with every keyed command ever made. A key older than this is
 * free again: the same key then makes a new command (documented for clients in
 * docs/money-api.md). Run daily by the workers (runtime/maintenance.ts).
 */
import { sql, type Kysely } from 'kysely';

export const IDEMPOTENCY_KEY_RETENTION_DAYS = 7;
/** Keys deleted per transaction: each is short, so none holds the projectors' xmin gate for long. */
export const IDEMPOTENCY_EXPIRY_BATCH = 10_000;

/** Deletes keys older than the retention, batch by batch; returns how many. */
export async function expireIdempotencyKeys<Tables>(
  db: Kysely<Tables>,
  retentionDays: number = IDEMPOTENCY_KEY_RETENTION_DAYS,
  batch: number = IDEMPOTENCY_EXPIRY_BATCH,
): Promise<number> {
  let expired = 0;
  for (;;) {
    const { rows } = await sql<{ deleted: number }>`
      select ledger.expire_idempotency_keys(${retentionDays} * interval '1 day', ${batch}) as deleted`.execute(db);
    const deleted = rows[0]?.deleted ?? 0;
    expired += deleted;
    if (deleted < batch) return expired;
  }
}
