/**
 * A batch's statements keep looking wallets up by key however few wallets there were when
 * their session planned them: `ledger.append_batch` keeps its generic plans for the session's
 * life, and one made on a new ledger (a handful of wallets, no ANALYZE yet) updated the heads
 * through a sequential scan of every wallet, for every batch, as the wallets grew
 * (bench/RESULTS.md, "2026-12-01 05:42"). Autovacuum is off for the heads here, so no ANALYZE
 * comes to replace that plan while the test runs.
 */
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { openFundedWallets } from '../test/funded-wallets.ts';
import { createLedger, rupees, type Ledger, type LedgerTables } from './index.ts';

let testDb: TestDatabase<LedgerTables>;
let owner: pg.Client;

beforeAll(async () => {
  // One connection: the ledger's plans and the statistics read below share its session.
  testDb = await createTestDatabase<LedgerTables>({ maxConnections: 1 });
  owner = new pg.Client({ connectionString: testDb.ownerUrl });
  await owner.connect();
  await owner.query('alter table ledger.accounts set (autovacuum_enabled = false)');
});

afterAll(async () => {
  await owner.end();
  await testDb.drop();
});

const transfer = (ledger: Ledger, n: number) =>
  ledger.transfer(
    { transferId: `t-${n}`, fromAccountId: 'alice', toAccountId: 'bob', amountPaise: rupees(1), reference: 'plan' },
    { actorId: 'alice', idempotencyKey: `k-${n}` },
  );

/** Sequential scans of the heads so far, as this session's statistics say (flushed first). */
async function headScans(): Promise<bigint> {
  await sql`select pg_stat_force_next_flush()`.execute(testDb.db);
  const { rows } = await sql<{ scans: bigint }>`
    select seq_scan as scans from pg_stat_user_tables where relid = 'ledger.accounts'::regclass`.execute(testDb.db);
  return rows[0]!.scans;
}

it('updates the heads by key in a session that planned its batches on a new ledger', async () => {
  const ledger = createLedger({ db: testDb.db, batching: false });
  await openFundedWallets(ledger, ['alice', 'bob'], rupees(100));
  // More than five calls: the session's plans of the batch's statements are generic by now.
  for (let n = 0; n < 8; n += 1) await transfer(ledger, n);
  await owner.query(`select ledger.open_wallet_account('grown-' || g) from generate_series(1, 20000) g`);

  const before = await headScans();
  for (let n = 8; n < 12; n += 1) await transfer(ledger, n);
  const after = await headScans();

  expect(after - before).toBe(0n);
  const { rows } = await sql<{ id: string; balance: bigint }>`
    select id, balance from ledger.accounts where id in ('alice', 'bob') order by id`.execute(testDb.db);
  expect(rows).toEqual([
    { id: 'alice', balance: rupees(88) },
    { id: 'bob', balance: rupees(112) },
  ]);
});
