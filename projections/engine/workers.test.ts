/**
 * Projection workers as real processes: one killed with SIGKILL in the middle of a batch
 * and restarted; two running at once; and one killed while it holds every projection's claim
 * (the checkpoint row locks) with another waiting on them, which takes over. Each way every
 * event is applied exactly once (the workers' own applied counts add up to the log, the
 * checkpoints' counts equal it) and the read tables equal a fresh replay.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { createTestDatabase, eventCount, type TestDatabase } from '../../test/database.ts';
import { tablesView } from '../../platform/database.ts';
import { createLedger, type LedgerTables } from '../../ledger/index.ts';
import { replayProjection, PROJECTION_NAMES } from '../index.ts';
import { appendRandomActivity } from '../../test/random-ledger.ts';
import { checkpointsOf, dumpReadTables } from '../../test/read-model.ts';
import { waitUntil } from '../../test/wait.ts';

const WORKER = fileURLToPath(new URL('../../test/projection-worker-process.ts', import.meta.url));
let testDb: TestDatabase<unknown>;

beforeEach(async () => {
  testDb = await createTestDatabase<unknown>();
  const ledger = createLedger({ db: tablesView<LedgerTables>(testDb.db) });
  const wallets = Array.from({ length: 8 }, (_, i) => `w${i}`);
  for (const wallet of wallets)
    await ledger.openWallet({ accountId: wallet, displayName: `Wallet ${wallet}` }, { actorId: wallet });
  await appendRandomActivity(testDb.url, { prefix: 'x', wallets, count: 1_500, seed: 42 });
});

afterEach(async () => {
  await testDb.drop();
});

function startWorker(env: Record<string, string>): {
  child: ChildProcess;
  exited: Promise<{ code: number | null; output: string }>;
  output: () => string;
} {
  const child = spawn(process.execPath, [WORKER, testDb.url], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, output })),
  );
  return { child, exited, output: () => output };
}

/** Waits until a worker has printed a line matching `pattern` (its start-up takes a while on a busy machine). */
async function waitForOutput(worker: { output: () => string }, pattern: RegExp, timeoutMs: number): Promise<void> {
  await waitUntil(`the worker to print ${String(pattern)}`, () => pattern.test(worker.output()), {
    timeoutMs,
    intervalMs: 20,
    detail: () => `its output: ${worker.output()}`,
  });
}

/**
 * Waits until a test worker's connections hold `batches` open batches (applied, not committed)
 * and, unless told otherwise, some earlier batch has committed.
 */
async function waitForOpenBatch(
  timeoutMs: number,
  options: { applicationName?: string; batches?: number; afterACommit?: boolean } = {},
): Promise<void> {
  const applicationName = options.applicationName ?? 'projection-test-worker';
  await waitUntil(
    `${options.batches ?? 1} open batch(es) of ${applicationName}`,
    async () => {
      const { rows } = await sql<{ open: number; applied: bigint }>`
      select (select count(*)::int from pg_stat_activity where application_name = ${applicationName} and state = 'idle in transaction') as open,
             (select coalesce(sum(events_applied), 0) from read.checkpoints) as applied`.execute(testDb.db);
      const committed = options.afterACommit === false || (rows[0]?.applied ?? 0n) > 0n;
      return (rows[0]?.open ?? 0) >= (options.batches ?? 1) && committed;
    },
    { timeoutMs, intervalMs: 5 },
  );
}

/** The last line a test worker prints: what it applied and how often a peer held a projection. */
function workerReport(output: string): { applied: number; busy: number; caughtUp: boolean } {
  const line = output.trim().split('\n').at(-1) ?? '';
  return JSON.parse(line) as { applied: number; busy: number; caughtUp: boolean };
}

async function expectEqualToReplay(): Promise<void> {
  const total = await eventCount(testDb.db);
  const checkpoints = await checkpointsOf(testDb.db);
  for (const name of PROJECTION_NAMES) expect(checkpoints[name]?.eventsApplied, name).toBe(BigInt(total));
  const projected = await dumpReadTables(testDb.db);
  for (const name of PROJECTION_NAMES) await replayProjection(testDb.db, name);
  const replayed = await dumpReadTables(testDb.db);
  for (const table of Object.keys(projected)) expect(replayed[table], table).toEqual(projected[table]);
  expect(projected.statement_lines?.length).toBeGreaterThan(500);
}

describe('given a worker killed with SIGKILL in the middle of a batch', () => {
  it('a restarted worker leaves the read tables equal to a fresh replay', async () => {
    const crashing = startWorker({ BATCH_SIZE: '50', PAUSE_MS: '100' });
    await waitForOpenBatch(20_000);
    crashing.child.kill('SIGKILL');
    const crash = await crashing.exited;
    expect(crash.code).toBe(null);
    const before = await checkpointsOf(testDb.db);
    expect(Object.values(before).some((c) => c.eventsApplied < 1_500n)).toBe(true);

    const restarted = startWorker({ BATCH_SIZE: '200' });
    const done = await restarted.exited;
    expect(done.code, done.output).toBe(0);
    await expectEqualToReplay();
  });
});

describe('given two worker processes at once', () => {
  it('projects each event once', async () => {
    const workers = [
      startWorker({ BATCH_SIZE: '40', PAUSE_MS: '5' }),
      startWorker({ BATCH_SIZE: '40', PAUSE_MS: '5' }),
    ];
    const results = await Promise.all(workers.map((worker) => worker.exited));
    for (const result of results) expect(result.code, result.output).toBe(0);
    // No range went to both: between them they applied each event once per projection.
    const applied = results.map((result) => workerReport(result.output).applied);
    expect(applied[0]! + applied[1]!).toBe((await eventCount(testDb.db)) * PROJECTION_NAMES.length);
    await expectEqualToReplay();
  });
});

describe('given a worker killed with SIGKILL while it holds every projection, and another waiting', () => {
  it('the waiting worker takes the claims over and applies every event once', async () => {
    // The doomed worker holds its round open (every projection's batch in one transaction) far
    // longer than the test lasts, so nothing it applies ever commits.
    const doomed = startWorker({ BATCH_SIZE: '50', PAUSE_MS: '60000', APPLICATION_NAME: 'doomed-worker' });
    await waitForOpenBatch(20_000, { applicationName: 'doomed-worker', afterACommit: false });
    const survivor = startWorker({ BATCH_SIZE: '200', APPLICATION_NAME: 'surviving-worker' });
    // The survivor finds a projection claimed and keeps trying (waited for, not a fixed time: a
    // second was not always enough for its process to start on a busy CI machine).
    await waitForOutput(survivor, /a peer holds a projection/, 20_000);
    expect((await checkpointsOf(testDb.db))[PROJECTION_NAMES[0]]?.eventsApplied).toBe(0n);
    doomed.child.kill('SIGKILL');
    expect((await doomed.exited).code).toBe(null);

    const done = await survivor.exited;
    expect(done.code, done.output).toBe(0);
    const report = workerReport(done.output);
    expect(report.busy, 'the survivor never found a projection claimed').toBeGreaterThan(0);
    expect(report.applied).toBe((await eventCount(testDb.db)) * PROJECTION_NAMES.length);
    await expectEqualToReplay();
  });
});
