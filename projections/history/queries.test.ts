/**
 * History search: one scan gives the page and the total; the total is exact up to the count
 * limit and "at least the limit" beyond it, and every page - inside the counted matches or
 * past them - is its slice of the user's matches, newest first, whichever way the search found
 * them (the newest rows, a walk of the index, a trigram lookup).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { tablesView } from '../../platform/database.ts';
import { createLedger, rupees, type LedgerTables } from '../../ledger/index.ts';
import { allCaughtUp, drainUntil, keyHistoryAfterRows } from '../../test/read-model.ts';
import { openFundedWallets } from '../../test/funded-wallets.ts';
import { readHistoryPage, readViews, type ReadViews } from '../index.ts';
import { newId } from '../../platform/ids.ts';
import { searchedAmountPaise } from '../../contracts/amount-input.ts';

const RENT_TRANSFERS = 30;
const FOOD_TRANSFERS = 5;
const COUNT_LIMIT = 10;

let testDb: TestDatabase<unknown>;
let read: ReadViews;

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
  // Every row in the search index, as a user's past 2,000 rows are: small histories take every way.
  await keyHistoryAfterRows(testDb.ownerUrl, 0);
  const ledger = createLedger({ db: tablesView<LedgerTables>(testDb.db) });
  read = readViews(testDb.db);
  await ledger.openWallet({ accountId: 'asha', displayName: 'Asha Iyer' }, { actorId: 'asha' });
  await ledger.openWallet({ accountId: 'ravi', displayName: 'Ravi Kumar' }, { actorId: 'ravi' });
  await ledger.completeCardDeposit(
    {
      depositId: 'top-up',
      walletId: 'asha',
      amountPaise: rupees(1_000),
      reference: 'card',
      provider: 'sandbox',
      paymentId: 'pi_1',
    },
    { actorId: 'provider:card' },
  );
  for (let n = 0; n < RENT_TRANSFERS + FOOD_TRANSFERS; n++) {
    const reference = n % 7 === 3 ? `food ${n}` : `rent ${n}`;
    await ledger.transfer(
      { transferId: `t${n}`, fromAccountId: 'asha', toAccountId: 'ravi', amountPaise: rupees(1), reference },
      { actorId: 'asha' },
    );
  }
  await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
});

afterAll(async () => {
  await testDb.drop();
});

/**
 * A user's matches by the plain query (the text anywhere in the reference or the counterparty's
 * name, the amount when the text is one, or the text at the start or the end of the id; any
 * case), newest first, as transaction ids: what every page must be a slice of.
 */
async function allMatches(text: string, accountId = 'asha'): Promise<string[]> {
  const literal = text.replace(/[\\%_]/g, (char) => `\\${char}`);
  const amount = searchedAmountPaise(text);
  const { rows } = await sql<{ transaction_id: string }>`
    select transaction_id from read.history
     where account_id = ${accountId}
       and (reference ilike ${`%${literal}%`} or counterparty_name ilike ${`%${literal}%`}
            or amount_paise = ${amount ?? -1n}
            or lower(transaction_id) like ${`${literal.toLowerCase()}%`}
            or lower(transaction_id) like ${`%${literal.toLowerCase()}`})
     order by created_at desc, position desc`.execute(testDb.db);
  return rows.map((row) => row.transaction_id);
}

describe('given a user with more matches than the search counts', () => {
  it('says "at least the limit" and pages through every match, inside the limit and past it', async () => {
    const expected = await allMatches('rent');
    expect(expected.length).toBeGreaterThan(COUNT_LIMIT + 7);
    const pageSize = 7;
    const seen: string[] = [];
    for (let page = 1; page <= Math.ceil(expected.length / pageSize) + 1; page++) {
      const result = await readHistoryPage(read, {
        accountId: 'asha',
        search: 'RENT',
        page,
        pageSize,
        searchCountLimit: COUNT_LIMIT,
      });
      expect([result.total, result.totalExact]).toEqual([COUNT_LIMIT, false]);
      seen.push(...result.rows.map((row) => row.transaction_id));
    }
    expect(seen).toEqual(expected);
  });

  it('counts exactly when the matches fit the limit, and finds nothing with the total 0', async () => {
    const food = await readHistoryPage(read, {
      accountId: 'asha',
      search: 'food',
      page: 1,
      searchCountLimit: COUNT_LIMIT,
    });
    expect([food.total, food.totalExact]).toEqual([(await allMatches('food')).length, true]);
    expect(food.rows.map((row) => row.transaction_id)).toEqual(await allMatches('food'));
    expect(food.total).toBeGreaterThan(0);
    const none = await readHistoryPage(read, { accountId: 'asha', search: 'nothing like it', page: 1 });
    expect([none.total, none.totalExact, none.rows]).toEqual([0, true, []]);
    const pastTheEnd = await readHistoryPage(read, { accountId: 'asha', search: 'food', page: 9 });
    expect([pastTheEnd.total, pastTheEnd.rows]).toEqual([food.total, []]);
  });

  it('searches the transaction id too, and within a type only', async () => {
    const byId = await readHistoryPage(read, { accountId: 'asha', search: 't3', page: 1 });
    expect(byId.rows.map((row) => row.transaction_id).sort()).toEqual(['t3', 't30', 't31', 't32', 't33', 't34']);
    const credits = await readHistoryPage(read, { accountId: 'ravi', type: 'debit', search: 'rent', page: 1 });
    expect([credits.total, credits.rows]).toEqual([0, []]);
  });
});

describe('ids of money movements (UUIDv7)', () => {
  it('are found by their random tail, which the app shows, and not told apart by their time prefix', async () => {
    const ledger = createLedger({ db: tablesView<LedgerTables>(testDb.db) });
    await ledger.openWallet({ accountId: 'meera', displayName: 'Meera Das' }, { actorId: 'meera' });
    await ledger.completeCardDeposit(
      {
        depositId: 'meera-top-up',
        walletId: 'meera',
        amountPaise: rupees(100),
        reference: 'card',
        provider: 'sandbox',
        paymentId: 'pi_2',
      },
      { actorId: 'provider:card' },
    );
    const ids = [newId(), newId(), newId()];
    for (const transferId of ids)
      await ledger.transfer(
        { transferId, fromAccountId: 'meera', toAccountId: 'ravi', amountPaise: rupees(1), reference: 'chai' },
        { actorId: 'meera' },
      );
    await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
    const second = ids[1] ?? '';
    const byTail = await readHistoryPage(read, { accountId: 'meera', search: second.slice(-8).toUpperCase(), page: 1 });
    expect(byTail.rows.map((row) => row.transaction_id)).toEqual([second]);
    expect(byTail.rows.map((row) => row.transaction_id)).toEqual(await allMatches(second.slice(-8), 'meera'));
    const whole = await readHistoryPage(read, { accountId: 'meera', search: second, page: 1 });
    expect(whole.rows.map((row) => row.transaction_id)).toEqual([second]);
    // Made within the same minute, they start alike (the first 8 characters change every 65.5 s):
    // the start picks none of them out.
    const prefix = second.slice(0, 8);
    const byStart = await readHistoryPage(read, { accountId: 'meera', search: prefix, page: 1 });
    expect(byStart.rows.map((row) => row.transaction_id).sort()).toEqual(
      ids.filter((id) => id.startsWith(prefix)).sort(),
    );
    expect(byStart.rows.length).toBeGreaterThan(1);
  });
});

describe('whichever way a search finds its matches', () => {
  // A head of 5 rows and lookups of at most 3 rows make 36 rows take every way.
  const ways = { searchHeadRows: 5, searchLookupRows: 3 };
  const search = (text: string, extra: Partial<Parameters<typeof readHistoryPage>[1]> = {}) =>
    readHistoryPage(read, { accountId: 'asha', search: text, page: 1, pageSize: 100, ...extra });

  it('takes the head when the newest rows hold every match or all of the rows', async () => {
    const all = await search('rent');
    expect(all.searchWay).toBe('head');
    expect(all.rows.map((row) => row.transaction_id)).toEqual(await allMatches('rent'));
    const newest = await search('rent', { ...ways, searchCountLimit: 3 });
    expect([newest.searchWay, newest.total, newest.totalExact]).toEqual(['head', 3, false]);
    // A page reaching past the count limit walks the matches itself.
    expect(newest.rows.map((row) => row.transaction_id)).toEqual(await allMatches('rent'));
  });

  it("looks rare words up by their trigrams, among this user's rows only", async () => {
    const food = await search('FOOD', { ...ways, searchLookupRows: 10 });
    expect(food.searchWay).toBe('keys');
    expect(food.rows.map((row) => row.transaction_id)).toEqual(await allMatches('food'));
    // The candidates are every "food"; the phrase itself is in two of them.
    const phrase = await search('food 3', { ...ways, searchLookupRows: 10 });
    expect(phrase.searchWay).toBe('keys');
    expect(phrase.rows.map((row) => row.transaction_id)).toEqual(await allMatches('food 3'));
    expect(phrase.rows).toHaveLength(2);
    const id = await search('T10', ways);
    expect(id.searchWay).toBe('keys');
    expect(id.rows.map((row) => row.transaction_id)).toEqual(['t10']);
    const none = await search('no such words', ways);
    expect([none.searchWay, none.total, none.rows]).toEqual(['keys', 0, []]);
  });

  it('finds the rows of the last batch in the index itself: no entry waits in a pending list', async () => {
    // The index takes its keys with fastupdate off (migration 0012): had the rows above gone to
    // a pending list, the owner's merge would find pages to empty.
    const owner = new pg.Client({ connectionString: testDb.ownerUrl });
    await owner.connect();
    try {
      const { rows } = await owner.query<{ pages: string }>(
        `select gin_clean_pending_list('read.history_search_keys'::regclass)::text as pages`,
      );
      expect(rows[0]?.pages).toBe('0');
    } finally {
      await owner.end();
    }
    const food = await search('food', { ...ways, searchLookupRows: 10 });
    expect(food.searchWay).toBe('keys');
    expect(food.rows.map((row) => row.transaction_id)).toEqual(await allMatches('food'));
  });

  it('walks when a lookup finds more than it fetches, or the text has no trigram', async () => {
    const rent = await search('rent', ways);
    expect(rent.searchWay).toBe('walk');
    expect(rent.rows.map((row) => row.transaction_id)).toEqual(await allMatches('rent'));
    const short = await search('t2', ways);
    expect(short.searchWay).toBe('walk');
    expect(short.rows.map((row) => row.transaction_id)).toEqual(await allMatches('t2'));
  });
});

describe('a search finds what the plain query finds, whatever the words', () => {
  // References in the scripts and cases Indian users write (Devanagari, Latin with accents,
  // digits and punctuation), and search texts cut from them with their case changed.
  const pieces = [
    'Rent',
    'rENT',
    'chai',
    'CHAI',
    'naïve',
    'Ünal',
    'straße',
    'दूध',
    'किराया',
    '#42',
    '4',
    '50%',
    'a_b',
    'x\\y',
    ' ',
    '-',
  ];
  const reference = fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 6 }).map((parts) => parts.join(''));
  let references: string[] = [];

  beforeAll(async () => {
    const ledger = createLedger({ db: tablesView<LedgerTables>(testDb.db) });
    await openFundedWallets(ledger, ['kiran'], rupees(1_000));
    references = fc.sample(
      reference.filter((text) => text.trim().length >= 1),
      { numRuns: 40, seed: 17 },
    );
    for (const [n, text] of references.entries())
      await ledger.transfer(
        { transferId: `k${n}`, fromAccountId: 'kiran', toAccountId: 'ravi', amountPaise: rupees(1), reference: text },
        { actorId: 'kiran' },
      );
    await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
  });

  it('for texts cut from the references, case changed, and for unrelated ones, by every way', async () => {
    const cut = fc
      .tuple(fc.nat(), fc.nat(), fc.boolean())
      .map(([which, at, upper]) => {
        const text = references[which % references.length] ?? '';
        const start = at % Math.max(1, text.length);
        const piece = text.slice(start, start + 1 + (at % 7)).trim();
        return upper ? piece.toUpperCase() : piece;
      })
      .filter((text) => text.length > 0);
    const texts = fc.oneof(
      cut,
      fc.constantFrom(...pieces).filter((text) => text.trim().length > 0),
      fc.constantFrom('k1', 'K3', 'zzz'),
    );
    const ways = fc.constantFrom(
      {},
      { searchHeadRows: 3, searchLookupRows: 2 },
      { searchHeadRows: 3, searchLookupRows: 100 },
    );
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(texts, ways, async (text, options) => {
        const page = await readHistoryPage(read, {
          accountId: 'kiran',
          search: text,
          page: 1,
          pageSize: 100,
          ...options,
        });
        seen.add(page.searchWay ?? 'none');
        expect(page.rows.map((row) => row.transaction_id)).toEqual(await allMatches(text.trim(), 'kiran'));
      }),
      { numRuns: 150, seed: 23 },
    );
    expect([...seen].sort()).toEqual(['head', 'keys', 'walk']);
  });
});

describe('a search finds what the row shows: the name and the amount', () => {
  beforeAll(async () => {
    const ledger = createLedger({ db: tablesView<LedgerTables>(testDb.db) });
    await ledger.openWallet({ accountId: 'bala', displayName: 'Bala Krishnan' }, { actorId: 'bala' });
    await ledger.openWallet({ accountId: 'nila', displayName: 'Nila Menon' }, { actorId: 'nila' });
    await ledger.completeCardDeposit(
      {
        depositId: 'bala-top-up',
        walletId: 'bala',
        amountPaise: rupees(100_000),
        reference: 'card',
        provider: 'sandbox',
        paymentId: 'pi_bala',
      },
      { actorId: 'provider:card' },
    );
    const payments: [string, bigint][] = [
      ['b1', 400_050n],
      ['b2', 1_400_050n],
      ['b3', 1_200n],
      ['b4', 400_050n],
      ['b5', 400_000n],
    ];
    for (const [transferId, amountPaise] of payments)
      await ledger.transfer(
        { transferId, fromAccountId: 'bala', toAccountId: 'nila', amountPaise, reference: `part ${transferId}` },
        { actorId: 'bala' },
      );
    await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
  });

  const ids = async (text: string, options: Partial<Parameters<typeof readHistoryPage>[1]> = {}) => {
    const page = await readHistoryPage(read, { accountId: 'nila', search: text, page: 1, pageSize: 100, ...options });
    return { way: page.searchWay, ids: page.rows.map((row) => row.transaction_id) };
  };
  const everyWay = [{}, { searchHeadRows: 2, searchLookupRows: 10 }, { searchHeadRows: 2, searchLookupRows: 1 }];

  it("by either word of the counterparty's name, in any case, by every way", async () => {
    const [first, last] = ['Bala', 'Krishnan'];
    for (const options of everyWay)
      for (const text of [first.toLowerCase(), last.toUpperCase(), `${first} ${last}`])
        expect((await ids(text, options)).ids, `${text} ${JSON.stringify(options)}`).toEqual([
          'b5',
          'b4',
          'b3',
          'b2',
          'b1',
        ]);
    const keyed = await ids(last.toUpperCase(), everyWay[1]);
    expect(keyed.way).toBe('keys');
  });

  it('by the amount as people type it, and only that amount', async () => {
    for (const options of everyWay)
      for (const text of ['4000.50', '4,000.50', '₹4000.5', 'Rs 4000.50', '  4000.5 '])
        expect((await ids(text, options)).ids, `${text} ${JSON.stringify(options)}`).toEqual(['b4', 'b1']);
    expect((await ids('4000', everyWay[1])).ids).toEqual(['b5']);
    expect((await ids('12', everyWay[0])).ids).toEqual(['b3']);
    const keyed = await ids('4,000.50', everyWay[1]);
    expect(keyed.way).toBe('keys');
    // No three digits in a row, so no trigram: the amount's key still finds it past the head
    // (walking a long history for such a text took ~180 ms).
    expect(await ids('12', everyWay[1])).toEqual({ way: 'keys', ids: ['b3'] });
    expect(await ids('₹12.00', everyWay[2])).toEqual({ way: 'keys', ids: ['b3'] });
  });
});
