/**
 * Projection "accounts" rebuilt by replay's set-based load (projector.bulk_replay_accounts,
 * in parts at once) gives the very rows its rule gives applied batch by batch: on a ledger of
 * deposits by every method (the funding accounts), failed ones, transfers, money requests
 * accepted and rejected, and reversals of each kind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase, eventCount, type TestDatabase } from '../../test/database.ts';
import pg from 'pg';
import { drainAll, replayBalances, replayProjection, runProjectionBatch } from '../index.ts';
import { checkpointsOf, dumpReadTables } from '../../test/read-model.ts';
import { everyKindProjected } from '../../test/corrected-activity.ts';
import { rawAppend, transferCompleted } from '../../test/raw-append.ts';

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

describe("rebuilding the balances alone from each account's newest posting", () => {
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

  it('gives them at a checkpoint that read order reached before the wallet lock did', async () => {
    // Two payments from one wallet: the first to take the wallet's lock has the larger
    // transaction id, so in read order (tx_id, position) the second comes first, and its
    // posting's running balance counts the first one's amount.
    const { rows } = await sql<{ account_id: string }>`
      select account_id from read.balances where account_id like 'w%' and balance_paise >= 100
       order by account_id limit 1`.execute(testDb.db);
    const payer = rows[0]?.account_id;
    if (!payer) throw new Error('no wallet with 100 paise');
    const early = new pg.Client({ connectionString: testDb.url });
    const late = new pg.Client({ connectionString: testDb.url });
    await Promise.all([early.connect(), late.connect()]);
    try {
      await early.query('begin');
      await early.query('select pg_current_xact_id()');
      await late.query('begin');
      await rawAppend(late, 'transfer-lock-first', -1, [transferCompleted('lock-first', payer, 'alice', 7n)]);
      await late.query('commit');
      await rawAppend(early, 'transfer-lock-second', -1, [transferCompleted('lock-second', payer, 'bob', 11n)]);
      await early.query('commit');
    } finally {
      await Promise.all([early.end(), late.end()]);
    }
    // The accounts projection takes the read-order first of the two only: the checkpoint now
    // sits between them. The gate is the cluster's snapshot xmin, so a transaction open in
    // another test's database (they share the server) can hold both back for a while.
    await expect.poll(gatePassedEveryEvent, { timeout: 60_000 }).toBe(true);
    const step = await runProjectionBatch(testDb.db, 'accounts', { batchSize: 1 });
    expect(step).toMatchObject({ status: 'done', applied: 1, more: true });
    const incremental = await accountsTables();
    expect(incremental.balances?.find((row) => row.includes(`"${payer}"`))).toBeDefined();
    const before = (await checkpointsOf(testDb.db))['accounts'];
    await sql`update read.balances set balance_paise = balance_paise + 1`.execute(testDb.db);
    for (const parallelism of [1, 3]) {
      await replayBalances(testDb.db, { parallelism });
      expect(await accountsTables()).toEqual(incremental);
      expect((await checkpointsOf(testDb.db))['accounts']).toEqual(before);
    }
    await drainAll(testDb.db);
  });
});

/** Whether the xmin gate (projector.next_range's) lets every event of the ledger through. */
async function gatePassedEveryEvent(): Promise<boolean> {
  const { rows } = await sql<{ passed: boolean }>`
    select max(tx_id) < pg_snapshot_xmin(pg_current_snapshot()) as passed from ledger.events`.execute(testDb.db);
  return rows[0]?.passed === true;
}

async function eventTypes(): Promise<string[]> {
  const { rows } = await sql<{ type: string }>`select distinct type from ledger.events`.execute(testDb.db);
  return rows.map((row) => row.type);
}
