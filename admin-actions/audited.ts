/**
 * An admin's ledger command and its audit row in one database transaction: both commit or
 * neither does. A stream changed concurrently is re-decided as the ledger's own runner does
 * (the ledger's retry lives in runCommand, which a caller-owned transaction bypasses).
 */
import type { Kysely, Transaction } from 'kysely';
import { isLedgerRejection, type LedgerCommands, type LedgerTables, type Ledger } from '../ledger/index.ts';
import { transactionView } from '../platform/database.ts';

const MAX_ATTEMPTS = 3;

export async function runAudited<T>(
  db: Kysely<unknown>,
  ledger: Ledger,
  work: (commands: LedgerCommands, trx: Transaction<unknown>) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute((trx) => work(ledger.within(transactionView<LedgerTables>(trx)), trx));
    } catch (error) {
      if (isLedgerRejection(error) && error.code === 'stream_conflict' && attempt < MAX_ATTEMPTS) continue;
      throw error;
    }
  }
}
