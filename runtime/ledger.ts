/**
 * The ledger as the running system uses it: every append wakes the projection workers -
 * after commit for a standalone command, inside the caller's transaction for `within` (so
 * the wake-up exists only if that transaction commits). See projections/engine/wake-up.ts.
 */
import type { Kysely } from 'kysely';
import { createLedger, type Ledger, type LedgerTables } from '../ledger/index.ts';
import { fallbackLogger, type Logger } from '../platform/logger.ts';
import { createWakeUpSender, type WakeUpSender } from '../projections/engine/wake-up.ts';

export interface WiredLedger extends Ledger {
  wakeUps: WakeUpSender;
}

export function createWiredLedger(db: Kysely<LedgerTables>, log: Logger = fallbackLogger): WiredLedger {
  const wakeUps = createWakeUpSender(db as unknown as Kysely<never>, log.child({ component: 'projections' }));
  const ledger = createLedger({
    db,
    afterCommit: () => wakeUps.afterCommit(),
    afterAppend: (trx) => wakeUps.inTransaction(trx as unknown as Kysely<never>),
  });
  return { ...ledger, wakeUps };
}
