/**
 * Projection "accounts" rebuilt by replay's set-based load (projector.bulk_replay_accounts,
 * in parts at once) gives the very rows its rule gives applied batch by batch: on a ledger of
 * deposits by every method (the funding accounts), failed ones, transfers, money requests
 * accepted and rejected, and reversals of each kind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase, eventCount, type TestDatabase } from '../../test/database.ts';
import { replayBalances, replayProjection } from '../index.ts';
import { checkpointsOf, dumpReadTables } from '../../test/read-model.ts';
import { everyKindProjected } from '../../test/corrected-activity.ts';

const ACCOUNTS_TABLES = ['directory', 'balances', 'statement_lines'] as const;

let testDb: TestDatabase<unknown>;

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
  // Small batches: the incremental rule's running figures carry over from batch to batch.
  await everyKindProjected(testDb.db, testDb.url, { seed: 5, batchSize: 13 });
});

afterAll(async () => {
  await testDb.drop();
});

async function accountsTables(): Promise<Record<string, string[]>> {
  const dump = await dumpReadTables(testDb.db);
  return Object.fromEntries(ACCOUNTS_TABLES.map((table) => [table, dump[table] ?? []]));
}

describe('replaying projection accounts by its set-based load', () => {
  it('gives the incremental rows, row for row, and the same checkpoint', async () => {
    const incremental = await accountsTables();
    const before = (await checkpointsOf(testDb.db))['accounts'];
    const types = await eventTypes();
    expect(types).toEqual(
      expect.arrayContaining(['TransferReversed', 'DepositReversed', 'MoneyRequestPaymentReversed', 'DepositFailed']),
    );
    expect(incremental.directory?.filter((row) => row.includes('"funding"'))).toHaveLength(3);
    expect(incremental.statement_lines?.length).toBeGreaterThan(1_000);

    for (const parallelism of [1, 3]) {
      const report = await replayProjection(testDb.db, 'accounts', { parallelism });
      expect(report.events).toBe(await eventCount(testDb.db));
      expect(await accountsTables()).toEqual(incremental);
      expect((await checkpointsOf(testDb.db))['accounts']).toEqual(before);
    }
  });
});

describe('rebuilding the balances alone by one aggregate over the postings', () => {
  it('gives the incremental balances, leaves the rest, and keeps the checkpoint', async () => {
    const incremental = await accountsTables();
    const before = (await checkpointsOf(testDb.db))['accounts'];
    // Balances gone wrong (as an operator would find them): the rebuild puts them right.
    await sql`update read.balances set balance_paise = balance_paise + 1, updated_at = now()`.execute(testDb.db);
    await sql`delete from read.balances where account_id = 'carol'`.execute(testDb.db);
    expect(await accountsTables()).not.toEqual(incremental);
    for (const parallelism of [1, 3]) {
      const report = await replayBalances(testDb.db, { parallelism });
      expect(report.events).toBe(await eventCount(testDb.db));
      expect(await accountsTables()).toEqual(incremental);
      expect((await checkpointsOf(testDb.db))['accounts']).toEqual(before);
    }
  });
});

async function eventTypes(): Promise<string[]> {
  const { rows } = await sql<{ type: string }>`select distinct type from ledger.events`.execute(testDb.db);
  return rows.map((row) => row.type);
}
