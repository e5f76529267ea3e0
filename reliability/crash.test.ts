/**
 * Crash (reliability): a real API process (`node bin/server.ts`, RUN_WORKERS=false)
 * and a real worker process (`node bin/worker.ts`) on one fresh database, under transfer load
 * from concurrent clients that retry each transfer's Idempotency-Key on any network error or
 * 5xx. Meanwhile each of the two is killed with SIGKILL at random moments five times (the
 * ten kills in a random order) and restarted. Then: every transfer answered "success" is in
 * the ledger exactly once, no other transfer happened, balances are deposits plus the
 * successful transfers, verifyLedger is clean once the projections reach the end of the
 * log, and the read model equals the heads.
 */
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import {
  checkInvariants,
  createFundedWallets,
  runTransferClients,
  waitForProjections,
  type Wallet,
} from './money-load.ts';
import { createCluster, sleep, type Cluster, type ManagedProcess } from './processes.ts';

/** Kills per process: the API and the worker are each killed this many times. */
const KILLS_EACH = 5;
const CLIENTS = 6;
const WALLETS = 8;
/** The whole run stops by itself within this, whatever happens. */
const RUN_BUDGET_MS = 200_000;

let database: TestDatabase<unknown>;
let cluster: Cluster;
let api: ManagedProcess;
let worker: ManagedProcess;

beforeAll(async () => {
  database = await createTestDatabase<unknown>();
  cluster = createCluster(database.url);
  [api, worker] = await Promise.all([cluster.spawn('api', 'crash-api'), cluster.spawn('worker', 'crash-worker')]);
}, 120_000);

afterAll(async () => {
  await cluster?.stopAll();
  await database?.drop();
});

it('loses and duplicates nothing when the API and the worker are killed -9 under transfer load', async () => {
  const deadline = Date.now() + RUN_BUDGET_MS;
  const baseUrl = (): string => api.url;
  const { wallets } = await createFundedWallets(baseUrl, WALLETS, deadline);

  let stopping = false;
  const load = runTransferClients({ clients: CLIENTS, wallets, baseUrl, stop: () => stopping, deadline });

  const victims = shuffled([
    ...Array<ManagedProcess>(KILLS_EACH).fill(api),
    ...Array<ManagedProcess>(KILLS_EACH).fill(worker),
  ]);
  const killed: string[] = [];
  const loadStarted = Date.now();
  // Not waits for the system: the drill's random timeline (load between kills, a process down
  // for a moment, load after the last restart); each restart waits for its process to serve.
  for (const victim of victims) {
    await sleep(randomInt(1_500, 4_000));
    await victim.kill9();
    const down = Date.now();
    await sleep(randomInt(0, 500));
    await victim.start();
    killed.push(`${victim.name} (down ${Date.now() - down} ms)`);
  }
  await sleep(1_500);
  stopping = true;
  const result = await load;
  const loadSeconds = (Date.now() - loadStarted) / 1000;

  await waitForProjections(database.db, 60_000);
  const report = await checkInvariants(database.db, wallets, result.succeeded);
  console.log(
    `[crash] kills: ${killed.join(', ')}; transfers succeeded: ${result.succeeded.length} in ${loadSeconds} s, retried: ${result.retried}, rejected: ${JSON.stringify(Object.fromEntries(result.rejected))}, 5xx seen: ${result.fiveHundreds.length}`,
  );

  expect(killed.filter((kill) => kill.startsWith('crash-api'))).toHaveLength(KILLS_EACH);
  expect(killed.filter((kill) => kill.startsWith('crash-worker'))).toHaveLength(KILLS_EACH);
  expect(result.succeeded.length).toBeGreaterThan(20);
  expect(report.notExactlyOnce, 'a successful transfer is not in the ledger exactly once').toEqual([]);
  expect(report.unexplained, 'a transfer no client was told about').toEqual([]);
  expect(report.balanceMismatches).toEqual([]);
  expect(report.verifyDifferences).toEqual([]);
  // While a process is down there is no answer at all; a 5xx that is not "database unavailable" is a bug.
  expect(
    result.fiveHundreds.filter((reply) => reply.status !== 503).map((reply) => JSON.stringify(reply.body)),
  ).toEqual([]);
  expectWallets(wallets);
}, 300_000);

/** Fisher-Yates: every order of the kills equally likely. */
function shuffled<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

function expectWallets(wallets: readonly Wallet[]): void {
  expect(new Set(wallets.map((wallet) => wallet.id)).size).toBe(WALLETS);
}
