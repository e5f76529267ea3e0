/**
 * The ledger as the running system uses it: every append wakes the projection workers -
 * after commit for a standalone command, inside the caller's transaction for `within` (so
 * the wake-up exists only if that transaction commits). See projections/engine/wake-up.ts.
 * Group commit keeps the ledger's defaults; a process may watch the batch sizes.
 */
import type { Kysely } from 'kysely';
import { createLedger, DEFAULT_BATCHING, type Ledger, type LedgerTables } from '../ledger/index.ts';
import { fallbackLogger, type Logger } from '../platform/logger.ts';
import { createWakeUpSender, type WakeUpSender } from '../projections/engine/wake-up.ts';

export interface WiredLedger extends Ledger {
  wakeUps: WakeUpSender;
}

export interface WiredLedgerOptions {
  /** Told the size of every group-commit batch (runtime/metrics.ts): the ledger knows no metrics library. */
  onAppendBatch?: ((size: number) => void) | undefined;
  log?: Logger | undefined;
}

export function createWiredLedger(db: Kysely<LedgerTables>, options: WiredLedgerOptions = {}): WiredLedger {
  const log = options.log ?? fallbackLogger;
  const wakeUps = createWakeUpSender(db as unknown as Kysely<never>, log.child({ component: 'projections' }));
  const ledger = createLedger({
    db,
    batching: { ...DEFAULT_BATCHING, onBatch: options.onAppendBatch },
    afterCommit: () => wakeUps.afterCommit(),
    afterAppend: (trx) => wakeUps.inTransaction(trx as unknown as Kysely<never>),
  });
  return { ...ledger, wakeUps };
}
