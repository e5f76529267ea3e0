/**
 * History's search index holds an account's rows once it has more than the bound
 * (`read.history_keys_after_rows()`; migration 0017): below it none of its rows are keyed and a
 * search walks them, past it all of them are - those inserted before included - and a search
 * looks its keys up. The round that passes the bound keys the new rows only; the earlier ones
 * wait for the step after the rounds (migration 0022), and meanwhile a search still walks. The
 * rule applied event by event and replay's set-based load agree, at the bound and past it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { tablesView } from '../../platform/database.ts';
import { createLedger, rupees, type LedgerTables, type Ledger } from '../../ledger/index.ts';
import { openFundedWallets } from '../../test/funded-wallets.ts';
import { allCaughtUp, drainUntil, dumpReadTables, keyHistoryAfterRows } from '../../test/read-model.ts';
import {
  PROJECTION_NAMES,
  readHistoryEntry,
  readHistoryPage,
  readViews,
  replayProjection,
  runProjectionRound,
  type ReadViews,
} from '../index.ts';
import type { HistoryType } from './tables.ts';

const BOUND = 5;

let testDb: TestDatabase<unknown>;
let ledger: Ledger;
let read: ReadViews;
let transfers = 0;

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
  await keyHistoryAfterRows(testDb.ownerUrl, BOUND);
  ledger = createLedger({ db: tablesView<LedgerTables>(testDb.db) });
  read = readViews(testDb.db);
  await openFundedWallets(ledger, ['asha', 'ravi', 'meera'], rupees(1_000));
});

afterAll(async () => {
  await testDb.drop();
});

async function pay(toAccountId: string, reference: string): Promise<void> {
  transfers += 1;
  await ledger.transfer(
    { transferId: `t${transfers}`, fromAccountId: 'asha', toAccountId, amountPaise: rupees(1), reference },
    { actorId: 'asha' },
  );
}

/** Each account's rows as keyed (true) or not, oldest first. */
async function keyedRows(): Promise<Record<string, boolean[]>> {
  const { rows } = await sql<{ account_id: string; keyed: boolean }>`
    select account_id, keyed from read.history order by account_id, tx_id, position`.execute(testDb.db);
  const byAccount: Record<string, boolean[]> = {};
  for (const row of rows) (byAccount[row.account_id] ??= []).push(row.keyed);
  return byAccount;
}

/** The accounts whose earlier rows wait to be keyed. */
async function waitingToBeKeyed(): Promise<string[]> {
  const { rows } = await sql<{ account_id: string }>`
    select account_id from read.history_keying order by account_id`.execute(testDb.db);
  return rows.map((row) => row.account_id);
}

/** Asha's search for `text` (of one type) with a head of two rows: the way it took and the ids, against the plain query's. */
async function searchOfTwoRowHead(
  text: string,
  type?: HistoryType,
): Promise<{ way: string | undefined; ids: string[]; expected: string[] }> {
  const page = await readHistoryPage(read, {
    accountId: 'asha',
    type,
    search: text,
    page: 1,
    pageSize: 100,
    searchHeadRows: 2,
    searchLookupRows: 10,
  });
  const { rows } = await sql<{ transaction_id: string }>`
    select transaction_id from read.history
     where account_id = 'asha' and (reference ilike ${`%${text}%`} or counterparty_name ilike ${`%${text}%`})
       and type = coalesce(${type ?? null}::text, type)
     order by created_at desc, position desc`.execute(testDb.db);
  return {
    way: page.searchWay,
    ids: page.rows.map((row) => row.transaction_id),
    expected: rows.map((row) => row.transaction_id),
  };
}

/**
 * The reads that find rows by the by-type index and the id's B-tree, which hold keyed rows only
 * (migration 0018), find each account's rows whether or not they are keyed: a page of each
 * type, and each movement's own page by its id in other letter case, for its two parties only.
 */
async function expectTypedPagesAndEntriesToFindEveryRow(): Promise<void> {
  for (const accountId of ['asha', 'ravi', 'meera']) {
    for (const type of ['deposit', 'debit', 'credit'] as const) {
      const page = await readHistoryPage(read, { accountId, type, page: 1, pageSize: 100 });
      const { rows } = await sql<{ transaction_id: string }>`
        select transaction_id from read.history where account_id = ${accountId} and type = ${type}
         order by created_at desc, position desc`.execute(testDb.db);
      expect(page.rows.map((row) => row.transaction_id)).toEqual(rows.map((row) => row.transaction_id));
      expect(page.total).toBe(rows.length);
    }
  }
  for (let transfer = 1; transfer <= transfers; transfer += 1) {
    const { rows } = await sql<{ account_id: string }>`
      select account_id from read.history where transaction_id = ${`t${transfer}`} order by account_id`.execute(
      testDb.db,
    );
    for (const accountId of ['asha', 'ravi', 'meera']) {
      const entry = await readHistoryEntry(read, accountId, `T${transfer}`);
      const isParty = rows.some((row) => row.account_id === accountId);
      expect(entry?.row.transaction_id).toBe(isParty ? `t${transfer}` : undefined);
    }
  }
}

/** The history tables after a replay by the set-based load equal those the rule left. */
async function expectReplayToAgree(): Promise<void> {
  const incremental = await dumpReadTables(testDb.db);
  await replayProjection(testDb.db, 'history', { parallelism: 2 });
  const replayed = await dumpReadTables(testDb.db);
  expect(replayed['history']).toEqual(incremental['history']);
  expect(replayed['history_counts']).toEqual(incremental['history_counts']);
}

describe('rows in the search index', () => {
  it('are none of an account at the bound: a search walks its rows', async () => {
    await pay('ravi', 'rent march');
    await pay('ravi', 'lunch with ravi');
    await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
    await pay('ravi', 'rent april');
    await pay('ravi', 'rent may');
    await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
    // Asha and Ravi: the deposit and four payments each, the bound exactly; Meera: the deposit.
    expect(await keyedRows()).toEqual({
      asha: Array(BOUND).fill(false),
      meera: [false],
      ravi: Array(BOUND).fill(false),
    });
    const lunch = await searchOfTwoRowHead('lunch');
    expect(lunch).toEqual({ way: 'walk', ids: ['t2'], expected: ['t2'] });
    const rent = await searchOfTwoRowHead('rent', 'debit');
    expect(rent.ids).toEqual(rent.expected);
    expect(rent.ids).toHaveLength(3);
    await expectTypedPagesAndEntriesToFindEveryRow();
    await expectReplayToAgree();
  });

  it("are all of an account's once it passes the bound, those before included: a search looks them up", async () => {
    await pay('meera', 'books');
    // The round alone: the new rows keyed, the earlier ones waiting, and a search walks them.
    const round = await runProjectionRound(testDb.db, PROJECTION_NAMES);
    expect(round).toMatchObject({ status: 'done', applied: 1 });
    expect(await keyedRows()).toEqual({
      asha: [...Array<boolean>(BOUND).fill(false), true],
      meera: [false, false],
      ravi: Array(BOUND).fill(false),
    });
    expect(await waitingToBeKeyed()).toEqual(['asha']);
    expect(await searchOfTwoRowHead('lunch')).toEqual({ way: 'walk', ids: ['t2'], expected: ['t2'] });
    const rentWhileWaiting = await searchOfTwoRowHead('rent', 'debit');
    expect(rentWhileWaiting.ids).toEqual(rentWhileWaiting.expected);
    expect(rentWhileWaiting.ids).toHaveLength(3);
    await expectTypedPagesAndEntriesToFindEveryRow();
    // Then the step after the rounds (a drain's last): the earlier rows keyed, the list empty.
    await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
    expect(await waitingToBeKeyed()).toEqual([]);
    expect(await keyedRows()).toEqual({
      asha: Array(BOUND + 1).fill(true),
      meera: [false, false],
      ravi: Array(BOUND).fill(false),
    });
    const lunch = await searchOfTwoRowHead('lunch');
    expect(lunch).toEqual({ way: 'keys', ids: ['t2'], expected: ['t2'] });
    const rent = await searchOfTwoRowHead('rent');
    expect(rent.ids).toEqual(rent.expected);
    expect(rent.ids).toHaveLength(3);
    const rentPaid = await searchOfTwoRowHead('rent', 'debit');
    expect(rentPaid).toEqual(rent);
    expect((await searchOfTwoRowHead('rent', 'credit')).ids).toEqual([]);
    expect((await searchOfTwoRowHead('T2', 'debit')).ids).toEqual(['t2']);
    await expectTypedPagesAndEntriesToFindEveryRow();
    await pay('ravi', 'lunch again');
    await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
    // Ravi, who receives, passes the bound too.
    expect(await waitingToBeKeyed()).toEqual([]);
    expect(await keyedRows()).toEqual({
      asha: Array(BOUND + 2).fill(true),
      meera: [false, false],
      ravi: Array(BOUND + 1).fill(true),
    });
    expect((await searchOfTwoRowHead('lunch')).ids).toEqual(['t6', 't2']);
    await expectTypedPagesAndEntriesToFindEveryRow();
    await expectReplayToAgree();
  });
});
