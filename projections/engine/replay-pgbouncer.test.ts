/**
 * Replay through a real PgBouncer in transaction pooling mode: every statement
 * may land on another server connection, so replay may keep no session state. All
 * projections replayed at once end equal to the projector's tables; a second replay of one
 * projection is still refused while one runs; and afterwards no server connection holds an
 * advisory lock or a changed maintenance_work_mem (a session lock or setting would be left
 * behind on whichever pooled connection took it).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import type { Kysely } from 'kysely';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { createDatabase, tablesView, withClient } from '../../platform/database.ts';
import { createLedger, type LedgerTables } from '../../ledger/index.ts';
import { drainAll, PROJECTION_NAMES, replayProjection, replayProjections } from '../index.ts';
import { appendRandomActivity } from '../../test/random-ledger.ts';
import { allCaughtUp, drainUntil, dumpReadTables } from '../../test/read-model.ts';
import { startPgBouncer, type PgBouncer, advisoryLocksIn } from '../../test/pgbouncer.ts';

/**
 * Server connections: a replay's lock transaction holds one for as long as the replay runs, so
 * four replays at once need more than four (with four, every one waits for a fifth).
 */
const POOL_SIZE = 2 * PROJECTION_NAMES.length;
const wallets = Array.from({ length: 6 }, (_, i) => `p${i}`);

let testDb: TestDatabase<unknown>;
let bouncer: PgBouncer;
let pooled: Kysely<unknown>;

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
  const ledger = createLedger({ db: tablesView<LedgerTables>(testDb.db) });
  for (const wallet of wallets)
    await ledger.openWallet({ accountId: wallet, displayName: `Wallet ${wallet}` }, { actorId: wallet });
  await appendRandomActivity(testDb.url, { prefix: 'pooled', wallets, count: 600, seed: 5 });
  await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
  bouncer = await startPgBouncer(testDb.url, { poolSize: POOL_SIZE });
  // Two connections per projection replayed at once (the lock's and the work's).
  pooled = createDatabase<unknown>({ connectionString: bouncer.url, maxConnections: 2 * PROJECTION_NAMES.length });
});

afterAll(async () => {
  await pooled?.destroy();
  await bouncer?.stop();
  await testDb?.drop();
});

/** What every pooled server connection says, each asked inside its own open transaction so all are held at once. */
async function onEveryServerConnection(query: string): Promise<string[]> {
  const clients = await Promise.all(
    Array.from({ length: POOL_SIZE }, async () => {
      const client = new pg.Client(bouncer.url);
      await client.connect();
      return client;
    }),
  );
  try {
    return await Promise.all(
      clients.map(async (client) => {
        await client.query('begin');
        const { rows } = await client.query<{ value: string }>(query);
        return rows[0]?.value ?? '';
      }),
    );
  } finally {
    await Promise.all(clients.map((client) => client.query('rollback').then(() => client.end())));
  }
}

it('replays every projection at once through PgBouncer, ending equal to what the projector built', async () => {
  const projected = await dumpReadTables(testDb.db);
  const reports = await replayProjections(pooled, PROJECTION_NAMES, { batchSize: 100 });
  expect(reports.map((report) => report.projection).sort()).toEqual([...PROJECTION_NAMES].sort());
  const replayed = await dumpReadTables(testDb.db);
  for (const table of Object.keys(projected)) expect(replayed[table], table).toEqual(projected[table]);
  // The live projector carries on from the swapped-in checkpoint.
  await drainAll(pooled);
});

it('still refuses a second replay of one projection while one runs', async () => {
  const results = await Promise.allSettled([
    replayProjection(pooled, 'history', { batchSize: 50 }),
    replayProjection(pooled, 'history', { batchSize: 50 }),
  ]);
  expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
  const refused = results.find((result) => result.status === 'rejected');
  expect(String(refused?.reason)).toContain('a replay of history is already running');
});

it('leaves no advisory lock and no changed setting on any pooled server connection', async () => {
  const locks = await advisoryLocksIn(testDb.ownerUrl, testDb.name);
  expect(locks).toBe(0);
  const memory = await onEveryServerConnection("select current_setting('maintenance_work_mem') as value");
  const direct = await withClient(testDb.url, async (client) => {
    const { rows } = await client.query<{ value: string }>("select current_setting('maintenance_work_mem') as value");
    return rows[0]?.value;
  });
  expect(memory).toEqual(Array.from({ length: POOL_SIZE }, () => direct));
});
