/**
 * The ledger as the running system uses it: every appending transaction also enqueues the
 * projection wake-up job, so a commit can never be left unprojected.
 */
import type { Kysely } from 'kysely';
import { createLedger, type Ledger, type LedgerTables } from '../ledger/index.ts';
import { sendInTransaction, type JobBoss } from '../platform/jobs.ts';
import { PROJECTION_WAKE_QUEUE } from '../projections/queues.ts';

export function createWiredLedger(db: Kysely<LedgerTables>, boss: JobBoss): Ledger {
  return createLedger({
    db,
    afterAppend: (trx, result) => sendInTransaction(boss, trx, PROJECTION_WAKE_QUEUE, { checkpoint: result.checkpoint }),
  });
}
