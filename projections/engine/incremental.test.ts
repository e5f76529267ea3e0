/**
 * 10,000 random events appended by four concurrent writers, projected incrementally in
 * small batches while they are written, give the same read tables as a full replay (of all
 * projections concurrently).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, eventCount, type TestDatabase } from '../../test/database.ts';
import { tablesView } from '../../platform/database.ts';
import { createLedger, type LedgerTables } from '../../ledger/index.ts';
import { sql } from 'kysely';
import { drainAll, readHistoryPage, replayProjections, PROJECTION_NAMES, readViews } from '../index.ts';
import { appendAll, generateAppends, seededRandom } from '../../test/random-ledger.ts';
import { allCaughtUp, checkpointsOf, drainUntil, dumpReadTables } from '../../test/read-model.ts';

const WRITERS = 4;
const WALLETS_PER_WRITER = 6;
const APPENDS_PER_WRITER = 2_500;

let testDb: TestDatabase<unknown>;

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
});

afterAll(async () => {
  await testDb.drop();
});

describe('given 10,000 random events from four concurrent writers', () => {
  it('incremental projection equals a full replay, row for row', async () => {
    const ledger = createLedger({ db: tablesView<LedgerTables>(testDb.db) });
    const groups: string[][] = [];
    for (let g = 0; g < WRITERS; g++) {
      const wallets = Array.from({ length: WALLETS_PER_WRITER }, (_, i) => `g${g}w${i}`);
      for (const wallet of wallets)
        await ledger.openWallet({ accountId: wallet, displayName: `Wallet ${wallet}` }, { actorId: wallet });
      groups.push(wallets);
    }
    const clients = await Promise.all(
      groups.map(async () => {
        const client = new pg.Client(testDb.url);
        await client.connect();
        return client;
      }),
    );
    let writing = true;
    const writers = Promise.all(
      groups.map((wallets, g) => {
        const random = seededRandom(1_000 + g);
        return appendAll(
          clients[g] as pg.Client,
          generateAppends(`g${g}x`, wallets, APPENDS_PER_WRITER, random),
          random,
        );
      }),
    ).finally(() => {
      writing = false;
    });
    const random = seededRandom(7);
    let rounds = 0;
    while (writing) {
      await drainAll(testDb.db, { batchSize: 1 + Math.floor(random() * 200) });
      rounds += 1;
    }
    await writers;
    await Promise.all(clients.map((client) => client.end()));
    await drainAll(testDb.db, { batchSize: 97 });
    await drainUntil(testDb.db, () => allCaughtUp(testDb.db));

    const total = await eventCount(testDb.db);
    expect(total).toBeGreaterThanOrEqual(10_000);
    expect(rounds).toBeGreaterThan(3);
    const checkpoints = await checkpointsOf(testDb.db);
    for (const name of PROJECTION_NAMES) expect(checkpoints[name]?.eventsApplied).toBe(BigInt(total));

    const incremental = await dumpReadTables(testDb.db);
    // All three at once, as `ledger replay` runs them.
    await replayProjections(testDb.db, PROJECTION_NAMES, { batchSize: 1_000 });
    const replayed = await dumpReadTables(testDb.db);
    for (const table of Object.keys(incremental)) expect(replayed[table], table).toEqual(incremental[table]);
    expect(incremental.history?.length).toBeGreaterThan(5_000);
  });

  // On the tables the test above built: every page - those counted from the newest end and
  // those past the middle, counted from the oldest - is its slice of the whole ordered history.
  it('pages a history from either end into exactly the ordered rows, with the counted total', async () => {
    const read = readViews(testDb.db);
    for (const type of [undefined, 'debit', 'credit'] as const) {
      const { rows } = await sql<{ key: string }>`
        select stream_id || '/' || position as key from read.history
         where account_id = 'g1w2' and (${type ?? null}::text is null or type = ${type ?? null})
         order by created_at desc, position desc`.execute(testDb.db);
      const expected = rows.map((row) => row.key);
      expect(expected.length).toBeGreaterThan(100);
      const pageSize = 7;
      const seen: string[] = [];
      for (let page = 1; page <= Math.ceil(expected.length / pageSize) + 1; page++) {
        const result = await readHistoryPage(read, { accountId: 'g1w2', type, page, pageSize });
        expect(result.total).toBe(expected.length);
        seen.push(...result.rows.map((row) => `${row.stream_id}/${row.position}`));
      }
      expect(seen).toEqual(expected);
    }
  });
});
