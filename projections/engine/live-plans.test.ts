/**
 * The live projector's plans are made once per session and kept until an ANALYZE: a plan made
 * while the ledger was tiny must not read postings by sequential scans once it has grown
 * (projections/engine/rules.sql). Autovacuum is off for the ledger's tables here, so nothing re-plans in
 * between - as when the autovacuum workers are busy elsewhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { tablesView } from '../../platform/database.ts';
import { createWiredLedger } from '../../runtime/ledger.ts';
import { rupees, type Ledger, type LedgerTables } from '../../ledger/index.ts';
import { openFundedWallets } from '../../test/funded-wallets.ts';

const WALLETS = ['lp0', 'lp1', 'lp2', 'lp3'];

let testDb: TestDatabase<unknown>;
let owner: pg.Client;
let projector: pg.Client;
let ledger: Ledger;

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
  owner = new pg.Client(testDb.ownerUrl);
  await owner.connect();
  for (const table of ['ledger.events', 'ledger.postings'])
    await owner.query(`alter table ${table} set (autovacuum_enabled = false)`);
  // One session, as a worker's: its plans are cached across batches.
  projector = new pg.Client(testDb.url);
  await projector.connect();
  ledger = createWiredLedger(tablesView<LedgerTables>(testDb.db));
  await openFundedWallets(ledger, WALLETS, rupees(100_000));
});

afterAll(async () => {
  await projector.end();
  await owner.end();
  await testDb.drop();
});

let sent = 0;
async function pay(count: number): Promise<void> {
  await Promise.all(
    Array.from({ length: count }, async () => {
      const i = sent++;
      const from = WALLETS[i % WALLETS.length] as string;
      const to = WALLETS[(i + 1) % WALLETS.length] as string;
      await ledger.transfer(
        { transferId: `lp-${i}`, fromAccountId: from, toAccountId: to, amountPaise: rupees(1), reference: 'plans' },
        { actorId: from },
      );
    }),
  );
}

/** One live batch of the accounts projection on the projector's session; the postings it read by sequential scan. */
async function batchSequentialScans(limit: number): Promise<{ applied: number; scans: number }> {
  await projector.query('begin');
  try {
    const { rows } = await projector.query<{ applied: number }>(
      `select applied from projector.run_batch('accounts', $1::integer)`,
      [limit],
    );
    const stats = await projector.query<{ seq_scan: string }>(
      "select seq_scan::text from pg_stat_xact_user_tables where relid = 'ledger.postings'::regclass",
    );
    await projector.query('commit');
    return { applied: rows[0]?.applied ?? 0, scans: Number(stats.rows[0]?.seq_scan ?? 0) };
  } catch (error) {
    await projector.query('rollback');
    throw error;
  }
}

describe('the live accounts rule, planned while the ledger was tiny', () => {
  it('still reads postings by key after the ledger has grown, with no ANALYZE in between', async () => {
    await owner.query('analyze ledger.events; analyze ledger.postings');
    // More than five batches, so the session's statements settle on their cached plans.
    for (let round = 0; round < 8; round++) {
      await pay(1);
      while ((await batchSequentialScans(500)).applied > 0);
    }
    await pay(3_000);
    // A transaction open elsewhere on the server can hold some of them back behind the xmin
    // gate for a moment: batches run until one applies its full 20, and none may scan.
    const batches: { applied: number; scans: number }[] = [];
    await expect
      .poll(
        async () => {
          const batch = await batchSequentialScans(20);
          batches.push(batch);
          return batch.applied;
        },
        { timeout: 30_000, interval: 20 },
      )
      .toBe(20);
    expect(batches.filter((batch) => batch.applied > 0).map((batch) => batch.scans)).toEqual(
      batches.filter((batch) => batch.applied > 0).map(() => 0),
    );
  });
});

describe('the live projector on a server that JIT-compiles', () => {
  it('runs every batch with JIT off, whatever the server or the session says', async () => {
    // The rules are planned for replay-sized ranges, so with JIT on each execution compiled them
    // (seconds per batch on a promoted PostgreSQL 15 node): run_batch carries its own setting.
    const { rows } = await owner.query<{ config: string[] | null }>(
      "select proconfig as config from pg_proc where oid = 'projector.run_batch(text, integer)'::regprocedure",
    );
    expect(rows[0]?.config ?? []).toContain('jit=off');
  });
});
