/**
 * The ordering guarantee: events commit out of position order, and the projector must skip
 * none of them. Two raw clients with explicit BEGIN/COMMIT control the commit order.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, eventCount, type TestDatabase } from '../../test/database.ts';
import {
  drainAll,
  drainProjection,
  replayBalances,
  replayProjection,
  PROJECTION_NAMES,
  readHistoryPage,
  readViews,
} from '../index.ts';
import { depositRequested, rawAppend, type RawEvent } from '../../test/raw-append.ts';
import { createLedger, type LedgerTables } from '../../ledger/index.ts';
import { tablesView } from '../../platform/database.ts';
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

describe('given postings of one account whose read order is not their position order', () => {
  it("keeps the account's greatest position and its time, applied in either order", async () => {
    const ledger = createLedger({ db: tablesView<LedgerTables>(testDb.db) });
    await ledger.openWallet({ accountId: 'v', displayName: 'Vee' }, { actorId: 'v' });
    await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
    const older = nextDeposit();
    const newer = nextDeposit();
    await first.query('begin');
    await xid(first);
    await second.query('begin');
    await xid(second);
    // The newer transaction settles first; the older one waits for the wallet's lock, then takes
    // the larger position: read order (older xid first) puts the smaller position last.
    const newerToken = await rawAppend(second, newer.stream, -1, settledDeposit(newer.id, 'v', 700n));
    const olderAppend = rawAppend(first, older.stream, -1, settledDeposit(older.id, 'v', 800n));
    await second.query('commit');
    const olderToken = await olderAppend;
    await first.query('commit');
    const newerPosition = BigInt(newerToken.split('.')[1] ?? 0);
    const olderPosition = BigInt(olderToken.split('.')[1] ?? 0);
    expect(olderPosition > newerPosition).toBe(true);

    // One event a batch, so the older transaction's posting is applied before the newer's.
    for (const name of PROJECTION_NAMES) await drainProjection(testDb.db, name, { batchSize: 1 });
    expect(await allCaughtUp(testDb.db)).toBe(true);
    for (const account of ['v', 'funding:upi']) {
      const { rows } = await first.query<{ last_position: string; updated: boolean }>(
        `select b.last_position::text, b.updated_at = e.recorded_at as updated
           from read.balances b join ledger.events e on e.position = $2
          where b.account_id = $1`,
        [account, olderPosition.toString()],
      );
      expect(rows).toEqual([{ last_position: olderPosition.toString(), updated: true }]);
    }
  });
});

describe('after every out-of-order case', () => {
  it('the incrementally projected tables equal a full replay, and the balances alone rebuilt', async () => {
    await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
    const incremental = await dumpReadTables(testDb.db);
    for (const name of PROJECTION_NAMES) await replayProjection(testDb.db, name);
    expect(await dumpReadTables(testDb.db)).toEqual(incremental);
    await replayBalances(testDb.db);
    expect(await dumpReadTables(testDb.db)).toEqual(incremental);
    expect(incremental.history?.length).toBe(8);
  });
});

/** A UPI deposit requested and settled in one append: postings to funding:upi and the wallet. */
function settledDeposit(depositId: string, walletId: string, amountPaise: bigint): RawEvent[] {
  const settled: RawEvent = {
    type: 'DepositSettled',
    data: { depositId, walletId, amountPaise: amountPaise.toString(), method: 'upi', confirmedBy: 'admin' },
    postings: [
      { account: 'funding:upi', amount: (-amountPaise).toString() },
      { account: walletId, amount: amountPaise.toString() },
    ],
  };
  return [depositRequested(depositId, walletId, amountPaise, 'settled out of order'), settled];
}
