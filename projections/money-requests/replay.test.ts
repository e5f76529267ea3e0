/**
 * Projection "money_requests" rebuilt by replay's set-based load
 * (projector.bulk_replay_money_requests, in one part and in three) gives the very rows its rule
 * gives applied batch by batch, and the same checkpoint, on a ledger with requests pending,
 * accepted and rejected - answered in the batch that made them and in later ones - among every
 * other kind of event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, eventCount, type TestDatabase } from '../../test/database.ts';
import { replayProjection } from '../index.ts';
import { checkpointsOf, dumpReadTables } from '../../test/read-model.ts';
import { everyKindProjected } from '../../test/corrected-activity.ts';

let testDb: TestDatabase<unknown>;

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
  // Small batches: requests answered in a later batch than the one that made them are updated in place.
  await everyKindProjected(testDb.db, testDb.url, { seed: 9, batchSize: 11 });
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
