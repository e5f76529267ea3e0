/**
 * Projection "history" rebuilt by replay's set-based load (projector.bulk_replay_history, in
 * parts at once) gives the very rows its rule gives applied batch by batch - the rows, the
 * per-type counts and who made each event - on a ledger with every kind of event: deposits by
 * every method (settled, failed, pending), transfers, money requests answered both ways and
 * reversals of each kind, then random activity - and which rows are in the search index (an
 * account's, once it has more rows than the bound).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, eventCount, type TestDatabase } from '../../test/database.ts';
import { replayProjection } from '../index.ts';
import { checkpointsOf, dumpReadTables, keyHistoryAfterRows } from '../../test/read-model.ts';
import { everyKindProjected } from '../../test/corrected-activity.ts';

const HISTORY_TABLES = ['history_counts', 'history', 'event_actors'] as const;
const KEYS_AFTER_ROWS = 40;

let testDb: TestDatabase<unknown>;

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
  // A bound some accounts pass - some inside a batch, some in the load - and some never reach.
  await keyHistoryAfterRows(testDb.ownerUrl, KEYS_AFTER_ROWS);
  // Small batches: deposits answered in a later batch than their request are updated in place.
  await everyKindProjected(testDb.db, testDb.url, { seed: 5, batchSize: 13 });
});

afterAll(async () => {
  await testDb.drop();
});

async function historyTables(): Promise<Record<string, string[]>> {
  const dump = await dumpReadTables(testDb.db);
  return Object.fromEntries(HISTORY_TABLES.map((table) => [table, dump[table] ?? []]));
}

describe('replaying projection history by its set-based load', () => {
  it('gives the incremental rows, counts and actors, row for row, and the same checkpoint', async () => {
    const incremental = await historyTables();
    const before = (await checkpointsOf(testDb.db))['history'];
    const statuses = new Set(incremental.history?.map((row) => /"(success|pending|failed)"/.exec(row)?.[1]));
    expect([...statuses].sort()).toEqual(['failed', 'pending', 'success']);
    expect(incremental.history?.some((row) => row.includes('Reversal: '))).toBe(true);
    expect(incremental.history?.length).toBeGreaterThan(1_000);
    expect(incremental.event_actors?.length).toBeGreaterThan(20);
    const keyed = new Set(incremental.history?.map((row) => /"keyed": (true|false)/.exec(row)?.[1]));
    expect([...keyed].sort()).toEqual(['false', 'true']);

    for (const parallelism of [1, 3]) {
      const report = await replayProjection(testDb.db, 'history', { parallelism });
      expect(report.events).toBe(await eventCount(testDb.db));
      expect(await historyTables()).toEqual(incremental);
      expect((await checkpointsOf(testDb.db))['history']).toEqual(before);
    }
  });
});
