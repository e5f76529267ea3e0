/**
 * Load through a connection pooler: the load test's two APIs, two workers and 32
 * transfer clients, with every process's DATABASE_URL a real PgBouncer in transaction pooling
 * mode (test/pgbouncer.ts) and only the LISTEN connections direct (LISTEN_DATABASE_URL). The
 * pool is smaller than the processes' connections, so transactions from many clients share
 * few server connections. No 5xx; then the load test's invariants: each successful transfer
 * exactly once, no other money moved, verifyLedger clean, read model equal to the heads. An
 * operator's replay of the history projection runs in a worker during the load, and afterwards
 * no advisory lock is left on a pooled server connection.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { startPgBouncer, type PgBouncer, advisoryLocksIn } from '../test/pgbouncer.ts';
import { readUntil } from '../test/wait.ts';
import { checkInvariants, createFundedWallets, runTransferClients, waitForProjections } from './money-load.ts';
import { callUntilDefinite, createCluster, sleep, type Cluster, type ManagedProcess } from './processes.ts';

const CLIENTS = 32;
const WALLETS = 16;
const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 20);
/** Server connections PgBouncer opens to Postgres for all four processes together. */
const POOL_SIZE = 10;

let database: TestDatabase<unknown>;
let bouncer: PgBouncer;
let cluster: Cluster;
let apis: ManagedProcess[];

beforeAll(async () => {
  database = await createTestDatabase<unknown>();
  bouncer = await startPgBouncer(database.url, { poolSize: POOL_SIZE });
  cluster = createCluster(bouncer.url);
  const direct = { LISTEN_DATABASE_URL: database.url };
  const started = await Promise.all([
    cluster.spawn('api', 'pooled-api-1', direct),
    cluster.spawn('api', 'pooled-api-2', direct),
    cluster.spawn('worker', 'pooled-worker-1', direct),
    cluster.spawn('worker', 'pooled-worker-2', direct),
  ]);
  apis = started.slice(0, 2);
}, 120_000);

afterAll(async () => {
  await cluster?.stopAll();
  await bouncer?.stop();
  await database?.drop();
});

it('holds every invariant through PgBouncer in transaction mode, and never answers 5xx', async () => {
  const deadline = Date.now() + LOAD_SECONDS * 1000 + 120_000;
  let turn = 0;
  const baseUrl = (): string => (apis[turn++ % apis.length] as ManagedProcess).url;
  const { admin, wallets } = await createFundedWallets(baseUrl, WALLETS, deadline);

  let stopping = false;
  let mostClients = 0;
  const load = runTransferClients({
    clients: CLIENTS,
    wallets,
    baseUrl,
    stop: () => stopping,
    deadline,
    timeoutMs: 60_000,
  });
  const watching = (async () => {
    while (!stopping) {
      const clients = (await bouncer.show('CLIENTS')).filter((row) => row.database === database.name);
      mostClients = Math.max(mostClients, clients.length);
      // Not a wait for the system: the pace of the client-count samples.
      await sleep(1_000);
    }
  })();
  const loadEnds = Date.now() + LOAD_SECONDS * 1000;
  // An operator's replay in the middle of it, run by a worker through PgBouncer. Not waits for
  // the system: the drill's timeline (the replay a quarter of the way in, the load to its end).
  await sleep((LOAD_SECONDS * 1000) / 4);
  const replay = await replayInWorker(baseUrl, admin, deadline);
  await sleep(Math.max(0, loadEnds - Date.now()));
  stopping = true;
  const [result] = await Promise.all([load, watching]);

  await waitForProjections(database.db, 60_000);
  const report = await checkInvariants(database.db, wallets, result.succeeded);
  const stats = (await bouncer.show('STATS')).find((row) => row.database === database.name);
  const servers = (await bouncer.show('SERVERS')).filter((row) => row.database === database.name);
  console.log(
    `[pgbouncer-load] ${LOAD_SECONDS} s, ${CLIENTS} clients: transfers succeeded: ${result.succeeded.length}, retried: ${result.retried}, rejected: ${JSON.stringify(Object.fromEntries(result.rejected))}, 5xx: ${result.fiveHundreds.length}; PgBouncer: ${String(stats?.total_xact_count)} transactions, up to ${mostClients} clients on ${servers.length} server connections (pool ${POOL_SIZE})`,
  );

  expect(replay).toBe('done');
  expect(result.fiveHundreds.map((reply) => JSON.stringify(reply.body))).toEqual([]);
  expect(result.retried, 'no process was killed: every request should have had an answer within 60 s').toBe(0);
  expect(result.succeeded.length).toBeGreaterThan(300);
  expect(report.notExactlyOnce).toEqual([]);
  expect(report.unexplained).toEqual([]);
  expect(report.balanceMismatches).toEqual([]);
  expect(report.verifyDifferences).toEqual([]);
  // The pooling was real: PgBouncer served the transactions on fewer server connections than it had clients.
  expect(Number(stats?.total_xact_count)).toBeGreaterThan(result.succeeded.length);
  expect(servers.length).toBeLessThanOrEqual(POOL_SIZE);
  expect(mostClients).toBeGreaterThan(POOL_SIZE);
  const advisoryLocks = await advisoryLocksIn(database.ownerUrl, database.name);
  expect(advisoryLocks).toBe(0);
}, 300_000);

/** Requests a replay of the history projection and polls until it is done or failed. */
async function replayInWorker(baseUrl: () => string, admin: string, deadline: number): Promise<string> {
  const definite = { baseUrl, deadline };
  const path = '/api/admin/projections/history/replay';
  const queued = await callUntilDefinite(
    'POST',
    path,
    { token: admin, headers: { 'idempotency-key': crypto.randomUUID() }, body: { reason: 'replay under load' } },
    definite,
  );
  if (queued.status !== 202) throw new Error(`replay: ${JSON.stringify(queued.body)}`);
  return readUntil(
    'the replay to finish',
    async () =>
      ((await callUntilDefinite('GET', path, { token: admin }, definite)).body.data as { state: string }).state,
    (state) => state === 'done' || state === 'failed',
    { timeoutMs: Math.max(0, deadline - Date.now()), intervalMs: 250 },
  );
}
