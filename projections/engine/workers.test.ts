/**
 * Projection workers as real processes: one killed with SIGKILL in the middle of a batch
 * and restarted, and two running at once. Either way each event is applied exactly once
 * and the read tables equal a fresh replay.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { createTestDatabase, eventCount, type TestDatabase } from '../../test/database.ts';
import { tablesView } from '../../platform/database.ts';
import { createLedger, type LedgerTables } from '../../ledger/index.ts';
import { replayProjection, PROJECTION_NAMES } from '../index.ts';
import { appendRandomActivity } from '../../test/random-ledger.ts';
import { checkpointsOf, dumpReadTables } from '../../test/read-model.ts';

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
  return { child, exited };
}

/** Waits until a test worker's connection holds an open batch: applied, not committed. */
async function waitForOpenBatch(timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { rows } = await sql<{ open: bigint; applied: bigint }>`
      select (select count(*) from pg_stat_activity where application_name = 'projection-test-worker' and state = 'idle in transaction') as open,
             (select coalesce(sum(events_applied), 0) from read.checkpoints) as applied`.execute(testDb.db);
    if ((rows[0]?.open ?? 0n) > 0n && (rows[0]?.applied ?? 0n) > 0n) return;
    await sleep(5);
  }
  throw new Error('no worker batch was ever open');
}

async function expectEqualToReplay(): Promise<void> {
  const total = await eventCount(testDb.db);
  const checkpoints = await checkpointsOf(testDb.db);
  for (const name of PROJECTION_NAMES) expect(checkpoints[name]?.eventsApplied, name).toBe(BigInt(total));
  const projected = await dumpReadTables(testDb.db);
  for (const name of PROJECTION_NAMES) await replayProjection(testDb.db, name);
  const replayed = await dumpReadTables(testDb.db);
  for (const table of Object.keys(projected)) expect(replayed[table], table).toEqual(projected[table]);
  expect(projected.statements?.length).toBeGreaterThan(500);
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
    await expectEqualToReplay();
  });
});
