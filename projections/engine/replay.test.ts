/**
 * Replay while the app keeps serving: writers append and the live projector runs during
 * the rebuild and the swap; afterwards the live tables equal a fresh replay.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { tablesView } from '../../platform/database.ts';
import { createLedger, type LedgerTables } from '../../ledger/index.ts';
import { drainAll, PROJECTION_NAMES, readHistoryPage, replayProjection, readViews } from '../index.ts';
import { appendAll, appendRandomActivity, generateAppends, seededRandom } from '../../test/random-ledger.ts';
import { allCaughtUp, drainUntil, dumpReadTables } from '../../test/read-model.ts';

let testDb: TestDatabase<unknown>;
const wallets = Array.from({ length: 6 }, (_, i) => `r${i}`);

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
  const ledger = createLedger({ db: tablesView<LedgerTables>(testDb.db) });
  for (const wallet of wallets)
    await ledger.openWallet({ accountId: wallet, displayName: `Wallet ${wallet}` }, { actorId: wallet });
  await appendRandomActivity(testDb.url, { prefix: 'before', wallets, count: 1_000, seed: 3 });
  await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
});

afterAll(async () => {
  await testDb.drop();
});

describe('given writers and a live projector running during a replay', () => {
  it('swaps in complete tables and ends equal to a fresh replay', async () => {
    const client = new pg.Client(testDb.url);
    await client.connect();
    const random = seededRandom(11);
    // Other wallets than before: the generator tracks balances from zero.
    const more = Array.from({ length: 4 }, (_, i) => `m${i}`);
    const ledger = createLedger({ db: tablesView<LedgerTables>(testDb.db) });
    for (const wallet of more)
      await ledger.openWallet({ accountId: wallet, displayName: `More ${wallet}` }, { actorId: wallet });
    let writing = true;
    const writer = appendAll(client, generateAppends('during', more, 1_500, random), random, 10).finally(() => {
      writing = false;
    });
    const live = (async () => {
      while (writing) await drainAll(testDb.db, { batchSize: 25 });
    })();
    const read = readViews(testDb.db);
    const serving = (async () => {
      let reads = 0;
      while (writing) {
        await readHistoryPage(read, { accountId: 'r0', page: 1 });
        reads += 1;
      }
      return reads;
    })();
    for (const name of PROJECTION_NAMES) await replayProjection(testDb.db, name, { batchSize: 200 });
    await Promise.all([writer, live]);
    expect(await serving).toBeGreaterThan(0);
    await client.end();
    await drainUntil(testDb.db, () => allCaughtUp(testDb.db));

    const projected = await dumpReadTables(testDb.db);
    for (const name of PROJECTION_NAMES) await replayProjection(testDb.db, name);
    const fresh = await dumpReadTables(testDb.db);
    for (const table of Object.keys(fresh)) expect(projected[table], table).toEqual(fresh[table]);
  });

  it('refuses a second replay of the same projection while one runs', async () => {
    const results = await Promise.allSettled([
      replayProjection(testDb.db, 'history'),
      replayProjection(testDb.db, 'history'),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = results.find((result) => result.status === 'rejected');
    expect(String(rejected?.status === 'rejected' ? rejected.reason : '')).toContain(
      'a replay of history is already running',
    );
  });

  it('keeps every read table index under its own name and definition (migrations name them)', async () => {
    const indexes = async (): Promise<string[]> => {
      const { rows } = await sql<{ definition: string }>`
        select pg_get_indexdef(i.indexrelid) as definition from pg_index i join pg_class c on c.oid = i.indrelid
         join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'read' order by 1`.execute(testDb.db);
      return rows.map((row) => row.definition);
    };
    const before = await indexes();
    for (const name of PROJECTION_NAMES) await replayProjection(testDb.db, name);
    expect(await indexes()).toEqual(before);
  });

  it('keeps the statistics targets of read tables and index expressions, so ANALYZE still leaves those out', async () => {
    // Migration 0015's targets (0: no plan uses them), as `relation.column` or `index.position`.
    const targets = async (): Promise<string[]> => {
      const { rows } = await sql<{ target: string }>`
        select format('%s.%s = %s', c.relname, case when c.relkind = 'i' then a.attnum::text else a.attname::text end,
                      a.attstattarget) as target
          from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'read' and a.attnum > 0 and not a.attisdropped and a.attstattarget >= 0
         order by 1`.execute(testDb.db);
      return rows.map((row) => row.target);
    };
    const before = await targets();
    expect(before).toEqual(
      expect.arrayContaining(['history.reference = 0', 'history_search_keys.1 = 0', 'statement_lines.tx_id = 0']),
    );
    for (const name of PROJECTION_NAMES) await replayProjection(testDb.db, name);
    expect(await targets()).toEqual(before);
    const owner = new pg.Client(testDb.ownerUrl);
    await owner.connect();
    try {
      await owner.query('analyze read.history');
      const { rows } = await owner.query<{ name: string }>(
        `select tablename || '.' || attname as name from pg_stats where schemaname = 'read'
            and tablename in ('history', 'history_search_keys') order by 1`,
      );
      const analysed = rows.map((row) => row.name);
      expect(analysed).toEqual(
        expect.arrayContaining(['history.account_id', 'history.created_at', 'history.stream_id']),
      );
      expect(analysed).not.toContain('history.reference');
      expect(analysed.filter((name) => name.startsWith('history_search_keys.'))).toEqual([]);
    } finally {
      await owner.end();
    }
  });
});
