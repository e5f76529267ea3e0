/**
 * Load with kills (reliability): three API processes and three worker
 * processes on one database, 32 concurrent transfer clients spread round-robin over the APIs
 * for a bounded run (LOAD_SECONDS, default 20 s). A third of the way in, a worker seen holding
 * a projection's claim (a checkpoint row lock in pg_locks; most likely still mid-batch when the
 * kill lands) is killed with SIGKILL; half way in, one API is. Neither comes back: the
 * survivors carry the rest of the run.
 *
 * What a kill is allowed to cost: requests in flight to the killed API get no HTTP answer
 * (connection reset, then refused); their clients retry the same Idempotency-Key on the
 * other APIs, which the "load balancer" (the rotation) now holds alone. A network error
 * against a living API, and any 5xx at all, is a failure: a living process must answer. Then
 * the same invariants as the crash test: each successful transfer exactly once, no other money
 * moved, verifyLedger clean after the surviving workers' projections converge, read model
 * equal to the heads.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { waitUntil } from '../test/wait.ts';
import { checkInvariants, createFundedWallets, runTransferClients, waitForProjections } from './money-load.ts';
import { createCluster, sleep, type Cluster, type ManagedProcess } from './processes.ts';

const CLIENTS = 32;
const WALLETS = 16;
const PROCESSES_EACH = 3;
const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 20);

let database: TestDatabase<unknown>;
let cluster: Cluster;
let apis: ManagedProcess[];
let workers: ManagedProcess[];

/** Each worker's connections carry its name (pg takes application_name from the URL), so pg_locks can name the holder. */
function labelled(url: string, name: string): string {
  const labelledUrl = new URL(url);
  labelledUrl.searchParams.set('application_name', name);
  return labelledUrl.toString();
}

beforeAll(async () => {
  database = await createTestDatabase<unknown>();
  cluster = createCluster(database.url);
  const names = Array.from({ length: PROCESSES_EACH }, (_, index) => index + 1);
  [apis, workers] = await Promise.all([
    Promise.all(names.map((n) => cluster.spawn('api', `load-api-${n}`))),
    Promise.all(
      names.map((n) =>
        cluster.spawn('worker', `load-worker-${n}`, { DATABASE_URL: labelled(database.url, `load-worker-${n}`) }),
      ),
    ),
  ]);
}, 180_000);

afterAll(async () => {
  await cluster?.stopAll();
  await database?.drop();
});

/** The worker whose connections hold the most projection claims right now (waits for one). */
async function workerHoldingAClaim(timeoutMs: number): Promise<ManagedProcess> {
  return waitUntil(
    "a worker to hold a projection's checkpoint lock",
    async () => {
      const { rows } = await sql<{ name: string }>`
      select a.application_name as name
        from pg_locks l join pg_stat_activity a on a.pid = l.pid
       where l.relation = 'read.checkpoints'::regclass and l.mode = 'RowShareLock' and l.granted
         and a.application_name like 'load-worker-%'
       group by 1 order by count(*) desc limit 1`.execute(database.db);
      return workers.find((worker) => worker.name === rows[0]?.name);
    },
    // Claims are held only while a batch runs: look often.
    { timeoutMs, intervalMs: 2 },
  );
}

it('holds every invariant with three APIs and three workers under 32 clients while one of each is killed -9', async () => {
  const deadline = Date.now() + LOAD_SECONDS * 1000 + 120_000;
  const rotation = [...apis];
  let turn = 0;
  const baseUrl = (): string => (rotation[turn++ % rotation.length] as ManagedProcess).url;
  const { wallets } = await createFundedWallets(baseUrl, WALLETS, deadline);

  let stopping = false;
  const load = runTransferClients({
    clients: CLIENTS,
    wallets,
    baseUrl,
    stop: () => stopping,
    deadline,
    timeoutMs: 60_000,
  });
  const loadStarted = Date.now();
  // Not waits for the system: the drill's timeline (a worker killed a third of the way in, an
  // API half way, the load stopped at LOAD_SECONDS).
  await sleep((LOAD_SECONDS * 1000) / 3);
  const deadWorker = await workerHoldingAClaim(10_000);
  await deadWorker.kill9();
  const workerKilledAt = (Date.now() - loadStarted) / 1000;

  await sleep(Math.max(0, (LOAD_SECONDS * 1000) / 2 - (Date.now() - loadStarted)));
  const deadApi = apis[1] as ManagedProcess;
  await deadApi.kill9();
  rotation.splice(rotation.indexOf(deadApi), 1);
  const apiKilledAt = (Date.now() - loadStarted) / 1000;

  await sleep(Math.max(0, LOAD_SECONDS * 1000 - (Date.now() - loadStarted)));
  stopping = true;
  const result = await load;

  await waitForProjections(database.db, 60_000);
  const report = await checkInvariants(database.db, wallets, result.succeeded);
  const networkErrors = Object.fromEntries(result.networkErrors);
  console.log(
    `[load] ${LOAD_SECONDS} s, ${CLIENTS} clients, ${PROCESSES_EACH} APIs + ${PROCESSES_EACH} workers: ` +
      `killed ${deadWorker.name} (holding a claim) at ${workerKilledAt.toFixed(1)} s, ${deadApi.name} at ${apiKilledAt.toFixed(1)} s; ` +
      `transfers succeeded: ${result.succeeded.length}, retried: ${result.retried}, network errors: ${JSON.stringify(networkErrors)}, ` +
      `rejected: ${JSON.stringify(Object.fromEntries(result.rejected))}, 5xx: ${result.fiveHundreds.length}`,
  );

  expect(deadWorker.child?.signalCode).toBe('SIGKILL');
  expect(deadApi.child?.signalCode).toBe('SIGKILL');
  expect(result.fiveHundreds.map((reply) => JSON.stringify(reply.body))).toEqual([]);
  // Only the killed API may leave a request unanswered; every retry is one of those.
  expect(Object.keys(networkErrors).filter((url) => url !== deadApi.url)).toEqual([]);
  expect(result.retried).toBeLessThanOrEqual(result.networkErrors.get(deadApi.url) ?? 0);
  // Hundreds of transfers, not a stalled run (thousands in 20 s on 2 cores).
  expect(result.succeeded.length).toBeGreaterThan(300);
  expect(report.notExactlyOnce).toEqual([]);
  expect(report.unexplained).toEqual([]);
  expect(report.balanceMismatches).toEqual([]);
  expect(report.verifyDifferences).toEqual([]);
}, 300_000);
