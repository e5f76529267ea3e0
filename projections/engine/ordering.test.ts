/**
 * The ordering guarantee: events commit out of position order, and the projector must skip
 * none of them. Two raw clients with explicit BEGIN/COMMIT control the commit order.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, eventCount, type TestDatabase } from '../../test/database.ts';
import { drainAll, drainProjection, replayProjection, PROJECTION_NAMES, readHistoryPage, readViews } from '../index.ts';
import { depositRequested, rawAppend } from '../../test/raw-append.ts';
import { allCaughtUp, checkpointsOf, drainUntil, dumpReadTables } from '../../test/read-model.ts';

let testDb: TestDatabase<unknown>;
let first: pg.Client;
let second: pg.Client;

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
  first = new pg.Client(testDb.url);
  second = new pg.Client(testDb.url);
  await first.connect();
  await second.connect();
});

afterAll(async () => {
  await first.end();
  await second.end();
  await testDb.drop();
});

let counter = 0;
function nextDeposit(): { id: string; stream: string } {
  counter += 1;
  return { id: `dep${counter}`, stream: `deposit-dep${counter}` };
}

async function projectedIds(): Promise<string[]> {
  const page = await readHistoryPage(readViews(testDb.db), { accountId: 'w', page: 1, pageSize: 100 });
  return page.rows.map((row) => row.transaction_id).sort();
}

async function expectEveryEventAppliedOnce(): Promise<void> {
  const total = await eventCount(testDb.db);
  const checkpoints = await checkpointsOf(testDb.db);
  for (const name of PROJECTION_NAMES) expect(checkpoints[name]?.eventsApplied).toBe(BigInt(total));
}

async function xid(client: pg.Client): Promise<bigint> {
  const { rows } = await client.query<{ xid: string }>('select pg_current_xact_id()::text as xid');
  return BigInt(rows[0]?.xid ?? '0');
}

beforeEach(async () => {
  await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
});

describe('given a transaction that took a lower position and commits after one with a higher position', () => {
  it('holds the later position back until the earlier commits, then projects both', async () => {
    const low = nextDeposit();
    const high = nextDeposit();
    await first.query('begin');
    const lowToken = await rawAppend(first, low.stream, -1, [depositRequested(low.id, 'w', 100n, 'low position')]);
    await second.query('begin');
    const highToken = await rawAppend(second, high.stream, -1, [depositRequested(high.id, 'w', 200n, 'high position')]);
    expect(BigInt(highToken.split('.')[1] ?? 0) > BigInt(lowToken.split('.')[1] ?? 0)).toBe(true);
    await second.query('commit');

    await drainAll(testDb.db);
    expect(await projectedIds()).not.toContain(high.id);

    await first.query('commit');
    await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
    expect(await projectedIds()).toEqual(expect.arrayContaining([low.id, high.id]));
    await expectEveryEventAppliedOnce();
  });
});

describe('given an older transaction (smaller xid) that took a larger position and commits first', () => {
  it('projects it, and later still projects the newer transaction that took the smaller position', async () => {
    const newer = nextDeposit();
    const older = nextDeposit();
    await first.query('begin');
    const olderXid = await xid(first);
    await second.query('begin');
    const newerXid = await xid(second);
    expect(newerXid > olderXid).toBe(true);
    const newerToken = await rawAppend(second, newer.stream, -1, [
      depositRequested(newer.id, 'w', 300n, 'newer xid, smaller position'),
    ]);
    const olderToken = await rawAppend(first, older.stream, -1, [
      depositRequested(older.id, 'w', 400n, 'older xid, larger position'),
    ]);
    expect(BigInt(olderToken.split('.')[1] ?? 0) > BigInt(newerToken.split('.')[1] ?? 0)).toBe(true);
    await first.query('commit');

    await drainUntil(testDb.db, async () => (await projectedIds()).includes(older.id));
    expect(await projectedIds()).not.toContain(newer.id);

    await second.query('commit');
    await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
    expect(await projectedIds()).toEqual(expect.arrayContaining([older.id, newer.id]));
    await expectEveryEventAppliedOnce();
  });
});

describe('regression: ordering by the text of tx_id (xid 974 sorted after 1021)', () => {
  it('orders by the xid8 value when the xids differ in digit count', async () => {
    await first.query('begin');
    const olderXid = await xid(first);
    // Burn xids until the next one has one more digit than the older transaction's.
    const boundary = 10n ** BigInt(olderXid.toString().length);
    const { rows } = await second.query<{ next: string }>('select pg_current_xact_id()::text as next');
    const burn = Number(boundary - BigInt(rows[0]?.next ?? '0'));
    if (burn > 0)
      await second.query(`do $$ begin for i in 1..${burn} loop perform pg_current_xact_id(); commit; end loop; end $$`);
    const older = nextDeposit();
    const newer = nextDeposit();
    await second.query('begin');
    expect((await xid(second)).toString().length).toBeGreaterThan(olderXid.toString().length);
    await rawAppend(second, newer.stream, -1, [depositRequested(newer.id, 'w', 500n, 'more digits')]);
    await rawAppend(first, older.stream, -1, [depositRequested(older.id, 'w', 600n, 'fewer digits')]);
    await second.query('commit');
    await first.query('commit');
    await drainUntil(testDb.db, async () => {
      for (const name of PROJECTION_NAMES) await drainProjection(testDb.db, name, { batchSize: 1 });
      return allCaughtUp(testDb.db);
    });
    expect(await projectedIds()).toEqual(expect.arrayContaining([older.id, newer.id]));
    await expectEveryEventAppliedOnce();
  });
});

describe('after every out-of-order case', () => {
  it('the incrementally projected tables equal a full replay', async () => {
    await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
    const incremental = await dumpReadTables(testDb.db);
    for (const name of PROJECTION_NAMES) await replayProjection(testDb.db, name);
    expect(await dumpReadTables(testDb.db)).toEqual(incremental);
    expect(incremental.history?.length).toBe(6);
  });
});
