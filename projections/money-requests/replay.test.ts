/**
 * Projection "money_requests" rebuilt by replay's set-based load
 * (projector.bulk_replay_money_requests, in one part and in three) gives the very rows its rule
 * gives applied batch by batch, and the same checkpoint, on a ledger with requests pending,
 * accepted and rejected - answered in the batch that made them and in later ones - among every
 * other kind of event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, eventCount, type TestDatabase } from '../../test/database.ts';
import { tablesView } from '../../platform/database.ts';
import { createLedger, type LedgerTables } from '../../ledger/index.ts';
import { drainAll, replayProjection } from '../index.ts';
import { appendRandomActivity } from '../../test/random-ledger.ts';
import { allCaughtUp, checkpointsOf, drainUntil, dumpReadTables } from '../../test/read-model.ts';
import { correctedActivity } from '../../test/corrected-activity.ts';

const as = (actorId: string) => ({ actorId });

let testDb: TestDatabase<unknown>;

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
  const ledger = createLedger({ db: tablesView<LedgerTables>(testDb.db) });
  for (const id of ['alice', 'bob', 'carol'])
    await ledger.openWallet({ accountId: id, displayName: `${id} name` }, as(id));
  await correctedActivity(ledger);
  const random = Array.from({ length: 8 }, (_, i) => `w${i}`);
  for (const id of random) await ledger.openWallet({ accountId: id, displayName: `Wallet ${id}` }, as(id));
  await appendRandomActivity(testDb.url, { prefix: 'x', wallets: random, count: 1_500, seed: 9 });
  // Small batches: requests answered in a later batch than the one that made them are updated in place.
  await drainAll(testDb.db, { batchSize: 11 });
  await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
});

afterAll(async () => {
  await testDb.drop();
});

async function moneyRequests(): Promise<string[]> {
  return (await dumpReadTables(testDb.db))['money_requests'] ?? [];
}

describe('replaying projection money_requests by its set-based load', () => {
  it('gives the incremental rows, row for row, and the same checkpoint', async () => {
    const incremental = await moneyRequests();
    const before = (await checkpointsOf(testDb.db))['money_requests'];
    const statuses = new Set(incremental.map((row) => /"status": "(\w+)"/.exec(row)?.[1]));
    expect([...statuses].sort()).toEqual(['accepted', 'pending', 'rejected']);
    expect(incremental.length).toBeGreaterThan(50);

    for (const parallelism of [1, 3]) {
      const report = await replayProjection(testDb.db, 'money_requests', { parallelism });
      expect(report.events).toBe(await eventCount(testDb.db));
      expect(await moneyRequests()).toEqual(incremental);
      expect((await checkpointsOf(testDb.db))['money_requests']).toEqual(before);
    }
  });
});
