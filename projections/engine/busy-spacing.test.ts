/**
 * A busy projector spaces its batches (worker-loop.ts, `busySpacingMs`) so each carries more
 * events; an idle one starts at once. Counted through the projection's own checkpoint
 * NOTIFYs (one per batch that applied events), with a spacing long enough (1 s) that neither
 * bound depends on the machine's speed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { createJobBoss, type JobBoss } from '../../platform/jobs.ts';
import { tablesView } from '../../platform/database.ts';
import { createLogger } from '../../platform/logger.ts';
import { createWiredLedger } from '../../runtime/ledger.ts';
import { rupees, type Ledger, type LedgerTables } from '../../ledger/index.ts';
import { startProjectionWorkers, waitForCheckpoint, type StopWorkers } from '../index.ts';
import { CHECKPOINT_CHANNEL } from './projector.ts';
import { openFundedWallets } from '../../test/funded-wallets.ts';

const SPACING_MS = 1_000;
const STREAM_MS = 3_000;
const WALLETS = ['w0', 'w1', 'w2', 'w3'];

let testDb: TestDatabase<unknown>;
let boss: JobBoss;
let ledger: Ledger;
let pool: pg.Pool;
let listener: pg.Client;
let stopWorkers: StopWorkers;
const historyBatches: number[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
  boss = createJobBoss(testDb.url, { supervise: false, schedule: false, max: 3 });
  await boss.start();
  ledger = createWiredLedger(tablesView<LedgerTables>(testDb.db));
  pool = new pg.Pool({ connectionString: testDb.url, max: 2 });
  await openFundedWallets(ledger, WALLETS, rupees(10_000));
  listener = new pg.Client({ connectionString: testDb.url });
  await listener.connect();
  listener.on('notification', (message) => {
    const payload = JSON.parse(message.payload ?? '{}') as { projection?: string };
    if (payload.projection === 'history') historyBatches.push(performance.now());
  });
  await listener.query(`listen ${CHECKPOINT_CHANNEL}`);
  stopWorkers = await startProjectionWorkers({
    db: testDb.db,
    connectionString: testDb.url,
    boss,
    intervalMs: 0,
    schedule: false,
    busySpacingMs: SPACING_MS,
    // One batch per drain, however fast the machine: with the default 500 events a batch, a
    // second's stream (~500-1,000 transfers here) took two or three back-to-back batches per
    // drain, and the count below measured the machine's speed, not the spacing.
    projector: { batchSize: 1_000_000 },
    log: createLogger('test', { level: 'silent' }),
  });
});

afterAll(async () => {
  await stopWorkers();
  await listener.end();
  await pool.end();
  await boss.stop({ graceful: false });
  await testDb.drop();
});

async function pay(i: number): Promise<string> {
  const from = WALLETS[i % WALLETS.length] as string;
  const to = WALLETS[(i + 1) % WALLETS.length] as string;
  const result = await ledger.transfer(
    { transferId: `t-${i}`, fromAccountId: from, toAccountId: to, amountPaise: rupees(1), reference: 'stream' },
    { actorId: from },
  );
  return result.checkpoint;
}

describe('given a projector under a continuous stream of commands', () => {
  it('starts its batches a spacing apart, so a few batches carry the whole stream', async () => {
    const started = performance.now();
    let sent = 0;
    let last = '';
    const client = async (offset: number): Promise<void> => {
      for (let i = offset; performance.now() - started < STREAM_MS; i += 4) {
        last = await pay(i);
        sent += 1;
      }
    };
    await Promise.all([0, 1, 2, 3].map(client));
    const streamed = historyBatches.filter((at) => at >= started).length;
    expect(await waitForCheckpoint(pool, 'history', last, 20_000)).toBe(true);
    expect(sent).toBeGreaterThan(20);
    // Back to back, every wake-up would start a batch of a few events (dozens a second). Spaced,
    // at most two per spacing: a drain asked for while none runs starts at once, possibly just
    // after a spaced batch (and a drain held back by another test's open transaction retries
    // unspaced until it applies).
    expect(streamed).toBeLessThanOrEqual(2 * Math.ceil(STREAM_MS / SPACING_MS) + 4);
  });

  it('starts at once when not behind: a command right after a lone one is projected without the spacing', async () => {
    // Not a wait for the system: the projector must have been idle for more than a spacing, so
    // that the next command finds it not behind.
    await new Promise((resolve) => setTimeout(resolve, SPACING_MS * 1.5));
    expect(await waitForCheckpoint(pool, 'history', await pay(1_000_000), 20_000)).toBe(true);
    // The checkpoint is visible before that drain has returned (it still checks what is left):
    // a command sent at once could find it running, and so behind, and be spaced (seen on a
    // busy CI machine). A quarter spacing lets it finish and still tells the two apart: a spaced
    // batch would start three quarters of a spacing after the send, past the bound below.
    await new Promise((resolve) => setTimeout(resolve, SPACING_MS / 4));
    // The last batch started moments ago, but nothing is queued behind it: no wait.
    const sentAt = performance.now();
    const checkpoint = await pay(1_000_001);
    expect(await waitForCheckpoint(pool, 'history', checkpoint, 20_000)).toBe(true);
    expect((historyBatches.at(-1) ?? Infinity) - sentAt).toBeLessThan(SPACING_MS / 2);
  });
});
