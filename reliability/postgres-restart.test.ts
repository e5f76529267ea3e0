/**
 * Postgres restarted under load (reliability): this file owns its own embedded
 * Postgres (not the shared test server), so it can stop it. An API process and a worker
 * process run under transfer load; Postgres is stopped for a few seconds and started again
 * on the same data directory and port. While it is away the API answers 503 (envelope,
 * "database unavailable") - never 500, never a crash; afterwards it recovers by itself, with
 * no restart of the API or the worker, and the ledger invariants hold.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, withClient } from '../platform/database.ts';
import { freePort, startEmbeddedPostgres, type EmbeddedServer } from '../platform/embedded-postgres.ts';
import { migrateDatabase } from '../platform/migrate.ts';
import { installation } from '../runtime/installation.ts';
import { TEST_RUNTIME_LOGIN, withLogin } from '../test/logins.ts';
import { WaitTimeout, waitUntil } from '../test/wait.ts';
import { checkInvariants, createFundedWallets, runTransferClients, waitForProjections } from './money-load.ts';
import { call, createCluster, sleep, type Cluster, type ManagedProcess, type Reply } from './processes.ts';

const OUTAGE_MS = 4_000;
// Regression: before platform/database.ts listened for errors on checked-out connections, the
// API and the worker both died here (unhandled "error" event: 57P01, connection terminated).
const RECOVERY_TIMEOUT_MS = 60_000;

let root: string;
let port: number;
let postgres: EmbeddedServer | undefined;
let cluster: Cluster;
let api: ManagedProcess;
let worker: ManagedProcess;
let databaseUrl: string;

async function startPostgres(): Promise<void> {
  postgres = await startEmbeddedPostgres({ dataDir: join(root, 'data'), port, persistent: true, fast: true });
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'wallet-pg-restart-'));
  port = await freePort();
  await startPostgres();
  await withClient((postgres as EmbeddedServer).url('postgres'), (admin) =>
    admin.query('create database wallet_restart'),
  );
  // Migrated as the owner (the superuser); the processes and the checks below run as the runtime login.
  const ownerUrl = (postgres as EmbeddedServer).url('wallet_restart');
  databaseUrl = withLogin(ownerUrl, TEST_RUNTIME_LOGIN);
  await migrateDatabase(ownerUrl, installation, { runtimeUrl: databaseUrl, resetRuntimePassword: true });
  cluster = createCluster(databaseUrl);
  [api, worker] = await Promise.all([
    cluster.spawn('api', 'pg-restart-api'),
    cluster.spawn('worker', 'pg-restart-worker'),
  ]);
}, 180_000);

afterAll(async () => {
  await cluster?.stopAll();
  await postgres?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Polls /api/health (and remembers every answer) until stopped. */
function probeHealth(baseUrl: string): { replies: (Reply | 'no answer')[]; stop: () => Promise<void> } {
  const replies: (Reply | 'no answer')[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        replies.push(await call(baseUrl, 'GET', '/api/health', { timeoutMs: 5_000 }));
      } catch {
        replies.push('no answer');
      }
      // Not a wait for the system: the probe's sampling pace.
      await sleep(100);
    }
  })();
  return {
    replies,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

it('answers 503 while Postgres is away and recovers by itself', async () => {
  const deadline = Date.now() + 150_000;
  const baseUrl = (): string => api.url;
  const { wallets } = await createFundedWallets(baseUrl, 6, deadline);
  let stopping = false;
  const load = runTransferClients({ clients: 4, wallets, baseUrl, stop: () => stopping, deadline, timeoutMs: 30_000 });
  // Not waits for the system: the drill's timeline (load running, then an outage of OUTAGE_MS).
  await sleep(2_000);

  await (postgres as EmbeddedServer).stop();
  const during = probeHealth(api.url);
  await sleep(OUTAGE_MS);
  await during.stop();
  await startPostgres();
  const restarted = Date.now();

  // -1 when it never recovers: the assertion below says so, after the invariants are checked.
  const recoveredAfterMs = await waitUntil(
    'the API to answer /api/health 200 after the restart',
    async () => {
      const health = await call(api.url, 'GET', '/api/health', { timeoutMs: 5_000 }).catch(() => undefined);
      return health?.status === 200 ? Date.now() - restarted : undefined;
    },
    { timeoutMs: RECOVERY_TIMEOUT_MS, intervalMs: 200 },
  ).catch((error: unknown) => {
    if (error instanceof WaitTimeout) return -1;
    throw error;
  });
  // Not a wait for the system: the load runs on a while after the recovery.
  await sleep(3_000);
  stopping = true;
  const result = await load;

  const { db } = openDatabase<unknown>({
    connectionString: databaseUrl,
    maxConnections: 4,
    applicationName: 'reliability-check',
  });
  try {
    await waitForProjections(db, 60_000);
    const report = await checkInvariants(db, wallets, result.succeeded);
    const statuses = during.replies.map((reply) => (reply === 'no answer' ? reply : reply.status));
    console.log(
      `[pg-restart] health during the outage: ${JSON.stringify(countOf(statuses))}; recovered ${recoveredAfterMs} ms after the restart; transfers succeeded: ${result.succeeded.length}, retried: ${result.retried}, 5xx: ${JSON.stringify(countOf(result.fiveHundreds.map((reply) => reply.status)))}`,
    );

    expect(api.child?.exitCode, `the API process died:\n${api.log()}`).toBeNull();
    expect(worker.child?.exitCode, `the worker process died:\n${worker.log()}`).toBeNull();
    expect(
      statuses.filter((status) => status === 503).length,
      'the API should answer 503 while the database is away',
    ).toBeGreaterThan(0);
    for (const reply of during.replies) {
      if (reply === 'no answer') continue;
      expect(reply.status).toBe(503);
      expect(reply.body).toMatchObject({ success: false, code: 'database_unavailable' });
    }
    expect(recoveredAfterMs, 'the API did not recover by itself').toBeGreaterThanOrEqual(0);
    expect(
      result.fiveHundreds.filter((reply) => reply.status !== 503).map((reply) => JSON.stringify(reply.body)),
    ).toEqual([]);
    expect(report.notExactlyOnce).toEqual([]);
    expect(report.unexplained).toEqual([]);
    expect(report.balanceMismatches).toEqual([]);
    expect(report.verifyDifferences).toEqual([]);
  } finally {
    await db.destroy();
  }
}, 300_000);

function countOf(values: readonly (string | number)[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[String(value)] = (counts[String(value)] ?? 0) + 1;
  return counts;
}
