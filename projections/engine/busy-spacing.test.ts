/**
 * A busy projector spaces its batches (worker-loop.ts: `unhurriedSpacingMs` while no reply waits,
 * `busySpacingMs` while one does) so each carries more events; an idle one starts at once. Batches are counted through the projection's own
 * checkpoint NOTIFYs (one per batch that applied events), with a spacing long enough (1 s) that
 * the upper bound does not depend on the machine's speed; whether a drain waited out the spacing
 * is read from the worker's own debug lines, not from how long its batch took to arrive (a busy
 * CI machine, or another test's open transaction holding the drain back, made that 862 ms).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { createJobBoss, type JobBoss } from '../../platform/jobs.ts';
import { tablesView } from '../../platform/database.ts';
import { createLogger } from '../../platform/logger.ts';
import { createWiredLedger } from '../../runtime/ledger.ts';
import { rupees, type Ledger, type LedgerTables } from '../../ledger/index.ts';
import { createCheckpointWaiter, startProjectionWorkers, waitForCheckpoint, type StopWorkers } from '../index.ts';
import { CHECKPOINT_CHANNEL } from './projector.ts';
import { openFundedWallets } from '../../test/funded-wallets.ts';
import { waitUntil } from '../../test/wait.ts';

const SPACING_MS = 1_000;
/** While replies wait: short enough that a hurried stream's rounds outnumber the unhurried bound. */
const HURRIED_SPACING_MS = 50;
const STREAM_MS = 3_000;
const WALLETS = ['w0', 'w1', 'w2', 'w3'];

let testDb: TestDatabase<unknown>;
let boss: JobBoss;
let ledger: Ledger;
let pool: pg.Pool;
let listener: pg.Client;
let stopWorkers: StopWorkers;
const historyBatches: number[] = [];
/** The worker's log lines by message, in order: 'projection round spaced', 'projections caught up', 'projection drained'. */
const workerLines: string[] = [];
const workerLog = createLogger('test', {
  level: 'debug',
  destination: {
    write: (line: string) => {
      workerLines.push((JSON.parse(line) as { msg: string }).msg);
    },
  },
});

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
    busySpacingMs: HURRIED_SPACING_MS,
    unhurriedSpacingMs: SPACING_MS,
    // One batch per drain, however fast the machine: with the default 500 events a batch, a
    // second's stream (~500-1,000 transfers here) took two or three back-to-back batches per
    // drain, and the count below measured the machine's speed, not the spacing.
    projector: { batchSize: 1_000_000 },
    log: workerLog,
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

  it('starts its batches the short spacing apart while the replies wait for them', async () => {
    const waiter = createCheckpointWaiter({ connectionString: testDb.url });
    try {
      const started = performance.now();
      // Each client waits for its payment as the API's reply does, through the shared waiter,
      // which tells the projector a reply waits.
      const client = async (offset: number): Promise<void> => {
        for (let i = offset; performance.now() - started < STREAM_MS; i += 4)
          expect(await waiter.wait('history', await pay(2_000_000 + i), 20_000)).toBe(true);
      };
      await Promise.all([0, 1, 2, 3].map(client));
      const streamed = historyBatches.filter((at) => at >= started).length;
      // More than the test above allows unhurried (2 a spacing and 4 more); 4 with the hurry
      // ignored on purpose.
      expect(streamed).toBeGreaterThan(2 * Math.ceil(STREAM_MS / SPACING_MS) + 4);
    } finally {
      await waiter.close();
    }
  });

  it('starts at once when not behind: a command right after a lone one is projected without the spacing', async () => {
    // Not a wait for the system: the projector must have been idle for more than a spacing, so
    // that the next command finds it not behind.
    await new Promise((resolve) => setTimeout(resolve, SPACING_MS * 1.5));
    const caughtUpBefore = count('projections caught up');
    expect(await waitForCheckpoint(pool, 'history', await pay(1_000_000), 20_000)).toBe(true);
    // The checkpoint is visible before that drain has returned (it still checks what is left): a
    // command sent before it returns finds it running, and so behind, and is rightly spaced.
    // Sent once it has returned, nothing is queued behind the last batch: no wait.
    await waitUntil("the lone command's drain to return", () => count('projections caught up') > caughtUpBefore);
    const sentAt = workerLines.length;
    expect(await waitForCheckpoint(pool, 'history', await pay(1_000_001), 20_000)).toBe(true);
    // What counts is a wait before the round that applied it. A spaced round after that one
    // (its drain going round again, or a drain asked for while it ran) does not delay this
    // command, and its line can be written just after the checkpoint is seen: counting spaced
    // lines until then raced it (CI, 2026-12-02: 7 against 6; the extra drain's cause not found).
    await waitUntil(
      'the drain that applied it to log it',
      () => workerLines.indexOf('projection drained', sentAt) >= 0,
    );
    const applied = workerLines.indexOf('projection drained', sentAt);
    expect(workerLines.slice(sentAt, applied)).not.toContain('projection round spaced');
  });

  it('did wait out the spacing under the stream (the line the test above counts is written)', () => {
    expect(count('projection round spaced')).toBeGreaterThan(0);
  });
});

function count(message: string): number {
  return workerLines.filter((line) => line === message).length;
}
