/**
 * History's upkeep (projections/history/rules.sql, projector.merge_history_search_keys): the
 * search index's pending entries are merged by the projection workers between batches, so a
 * payment's batch does not merge them inside its reply's wait. The merge runs as the runtime
 * role (the function runs as the index's owner), and with the workers' upkeep off the entries
 * stay pending.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { createJobBoss, type JobBoss } from '../../platform/jobs.ts';
import { tablesView } from '../../platform/database.ts';
import { createLogger } from '../../platform/logger.ts';
import { createLedger, rupees, type Ledger, type LedgerTables } from '../../ledger/index.ts';
import { drainAll, startProjectionWorkers } from '../index.ts';
import { allCaughtUp, drainUntil } from '../../test/read-model.ts';

/** Four of history's 250 ms upkeep periods. */
const UPKEEP_WAIT_MS = 1_000;

let testDb: TestDatabase<unknown>;
let boss: JobBoss;
let ledger: Ledger;
let sent = 0;

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
  boss = createJobBoss(testDb.url, { supervise: false, schedule: false, max: 2 });
  await boss.start();
  ledger = createLedger({ db: tablesView<LedgerTables>(testDb.db) });
  for (const id of ['asha', 'ravi'])
    await ledger.openWallet({ accountId: id, displayName: `${id} name` }, { actorId: id });
  await ledger.completeCardDeposit(
    {
      depositId: 'c1',
      walletId: 'asha',
      amountPaise: rupees(5_000),
      reference: 'card',
      provider: 'sandbox',
      paymentId: 'p1',
    },
    { actorId: 'provider:card' },
  );
});

afterAll(async () => {
  await boss.stop({ graceful: false });
  await testDb.drop();
});

async function sendPayments(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    sent += 1;
    await ledger.transfer(
      {
        transferId: `t${sent}`,
        fromAccountId: 'asha',
        toAccountId: 'ravi',
        amountPaise: rupees(1),
        reference: `lunch ${sent}`,
      },
      { actorId: 'asha' },
    );
  }
}

/** Pending pages the merge empties now, as the runtime role. */
async function merge(): Promise<number> {
  const { rows } = await sql<{ pages: number }>`select projector.merge_history_search_keys()::int as pages`.execute(
    testDb.db,
  );
  return rows[0]?.pages ?? -1;
}

async function paymentsProjectedByWorkers(upkeep: boolean): Promise<void> {
  const stop = await startProjectionWorkers({
    db: testDb.db,
    connectionString: testDb.url,
    boss,
    intervalMs: 100,
    schedule: false,
    upkeep,
    log: createLogger('test', { level: 'silent' }),
  });
  try {
    await sendPayments(20);
    await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
    await sleep(UPKEEP_WAIT_MS);
  } finally {
    await stop();
  }
}

describe("history's search index upkeep", () => {
  it('merges the pending entries as the runtime role, and finds none left right after', async () => {
    await sendPayments(20);
    await drainAll(testDb.db);
    expect(await merge()).toBeGreaterThan(0);
    expect(await merge()).toBe(0);
  });

  it('is done by the projection workers between batches; with their upkeep off the entries stay pending', async () => {
    await paymentsProjectedByWorkers(false);
    expect(await merge()).toBeGreaterThan(0);
    await paymentsProjectedByWorkers(true);
    expect(await merge()).toBe(0);
  });
});
