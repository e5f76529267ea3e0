/**
 * The deferred projections (no reply waits for them: statement_days) drain in rounds of their
 * own, started a deferred spacing apart busy or not (worker-loop.ts), while the rounds replies
 * wait for keep their own short spacing. Counted through each projection's checkpoint NOTIFYs
 * (one per round that applied events), with a deferred spacing long enough (1 s) that neither
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
import { DEFERRED_PROJECTIONS, startProjectionWorkers, waitForCheckpoint, type StopWorkers } from '../index.ts';
import { CHECKPOINT_CHANNEL } from './projector.ts';
import { openFundedWallets } from '../../test/funded-wallets.ts';

const DEFERRED_SPACING_MS = 1_000;
const STREAM_MS = 3_000;
const WALLETS = ['w0', 'w1', 'w2', 'w3'];

let testDb: TestDatabase<unknown>;
let boss: JobBoss;
let ledger: Ledger;
let pool: pg.Pool;
let listener: pg.Client;
let stopWorkers: StopWorkers;
const rounds = { history: [] as number[], statement_days: [] as number[] };

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
    if (payload.projection === 'history' || payload.projection === 'statement_days')
      rounds[payload.projection].push(performance.now());
  });
  await listener.query(`listen ${CHECKPOINT_CHANNEL}`);
  stopWorkers = await startProjectionWorkers({
    db: testDb.db,
    connectionString: testDb.url,
    boss,
    intervalMs: 0,
    schedule: false,
    deferredSpacingMs: DEFERRED_SPACING_MS,
    // One round per drain, however fast the machine (as busy-spacing.test.ts): with the default
    // 500 events a round, a second's stream takes two or more back-to-back rounds per drain.
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

describe('the deferred projections', () => {
  it('are statement_days alone', () => {
    expect(DEFERRED_PROJECTIONS).toEqual(['statement_days']);
  });

  it('under a stream of commands, round a deferred spacing apart while history rounds many times between', async () => {
    const started = performance.now();
    let last = '';
    const client = async (offset: number): Promise<void> => {
      for (let i = offset; performance.now() - started < STREAM_MS; i += 4) last = await pay(i);
    };
    await Promise.all([0, 1, 2, 3].map(client));
    const history = rounds.history.filter((at) => at >= started).length;
    const deferred = rounds.statement_days.filter((at) => at >= started).length;
    expect(await waitForCheckpoint(pool, 'statement_days', last, 20_000)).toBe(true);
    expect(await waitForCheckpoint(pool, 'history', last, 20_000)).toBe(true);
    // In one round with history, statement_days would move as often as it does (dozens of
    // rounds here). In its own, at most one per spacing, and one more at the stream's start
    // (the drain starts at once after an idle spell) and one held back by a retry.
    expect(deferred).toBeLessThanOrEqual(Math.ceil(STREAM_MS / DEFERRED_SPACING_MS) + 2);
    expect(history).toBeGreaterThan(3 * deferred);
  });

  it('start at once after an idle spell: a lone command is projected without the spacing', async () => {
    // Not a wait for the system: the deferred drain must have been idle for more than a spacing.
    await new Promise((resolve) => setTimeout(resolve, DEFERRED_SPACING_MS * 1.5));
    const sentAt = performance.now();
    const checkpoint = await pay(1_000_000);
    expect(await waitForCheckpoint(pool, 'statement_days', checkpoint, 20_000)).toBe(true);
    expect((rounds.statement_days.at(-1) ?? Infinity) - sentAt).toBeLessThan(DEFERRED_SPACING_MS / 2);
  });
});
