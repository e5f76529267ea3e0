/**
 * `npm run ledger -- verify` after the ledger's concurrency scenario: 32 clients moving
 * money among 20 wallets (3 hot), projected by the real projector, then verified by the CLI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { createLedger, isLedgerRejection, rupees, type LedgerTables } from '../ledger/index.ts';
import { tablesView } from '../platform/database.ts';
import { readCheckpoints } from '../projections/index.ts';
import { capturedIo } from './io.ts';
import { EXIT_OK, runCli } from './main.ts';
import { openFundedWallets } from '../test/funded-wallets.ts';
import { drainUntil } from '../test/read-model.ts';

const CLIENTS = 32;
const TRANSFERS = 3_000;
const WALLETS = Array.from({ length: 20 }, (_, i) => `v${i}`);

let testDb: TestDatabase<unknown>;

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>({ maxConnections: CLIENTS + 2 });
});

afterAll(async () => {
  await testDb.drop();
});

describe('verify after 32 concurrent clients', () => {
  it('passes: heads, projections and zero sums agree', async () => {
    const ledger = createLedger({ db: tablesView<LedgerTables>(testDb.db) });
    await openFundedWallets(ledger, WALLETS, rupees(500));
    let next = 0;
    const client = async (): Promise<void> => {
      for (let i = next++; i < TRANSFERS; i = next++) {
        const from = WALLETS[i % 3 === 0 ? i % 3 : i % WALLETS.length] ?? 'v0';
        const to = WALLETS[(i * 7 + 1) % WALLETS.length] ?? 'v1';
        if (from === to) continue;
        try {
          await ledger.transfer(
            {
              transferId: `t${i}`,
              fromAccountId: from,
              toAccountId: to,
              amountPaise: BigInt(100 + (i % 5_000)),
              reference: 'load',
            },
            { actorId: from },
          );
        } catch (error) {
          if (!isLedgerRejection(error) || error.code !== 'insufficient_funds') throw error;
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));

    // Drain until every projection has applied the whole log (other test files' transactions
    // can hold the cluster-wide snapshot xmin back for a moment).
    const { rows } = await testDb.pool.query<{ n: string }>('select count(*) as n from ledger.events');
    const total = BigInt(rows[0]?.n ?? '0');
    let caughtUp = false;
    await drainUntil(
      testDb.db,
      async () => {
        const poolClient = await testDb.pool.connect();
        const checkpoints = await readCheckpoints(poolClient).finally(() => poolClient.release());
        const applied = await testDb.pool.query<{ n: string }>('select min(events_applied) as n from read.checkpoints');
        caughtUp = checkpoints.size > 0 && BigInt(applied.rows[0]?.n ?? '0') >= total;
        return caughtUp;
      },
      30_000,
    );
    expect(caughtUp).toBe(true);

    const io = capturedIo();
    const code = await runCli(['verify'], io, { DATABASE_URL: testDb.url, DATA_DIR: '/nonexistent' });
    expect(io.stdout.join('\n')).toMatch(/total\s+₹0\.00/);
    expect(code, io.stderr.join('\n') + io.stdout.join('\n')).toBe(EXIT_OK);
  });
});
