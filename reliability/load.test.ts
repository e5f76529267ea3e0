/**
 * Load (issue 8, reliability): two API processes and two worker processes on one database,
 * 32 concurrent transfer clients spread over both APIs for a bounded run (LOAD_SECONDS,
 * default 20 s: "10 minutes compressed"). No 5xx at all; then the same invariants as the
 * crash test: each successful transfer exactly once, no other money moved, verifyLedger
 * clean after both workers' projections converge, read model equal to the heads.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { checkInvariants, createFundedWallets, runTransferClients, waitForProjections } from './money-load.ts';
import { createCluster, sleep, type Cluster, type ManagedProcess } from './processes.ts';

const CLIENTS = 32;
const WALLETS = 16;
const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 20);

let database: TestDatabase<unknown>;
let cluster: Cluster;
let apis: ManagedProcess[];

beforeAll(async () => {
  database = await createTestDatabase<unknown>();
  cluster = createCluster(database.url);
  const started = await Promise.all([
    cluster.spawn('api', 'load-api-1'),
    cluster.spawn('api', 'load-api-2'),
    cluster.spawn('worker', 'load-worker-1'),
    cluster.spawn('worker', 'load-worker-2'),
  ]);
  apis = started.slice(0, 2);
}, 120_000);

afterAll(async () => {
  await cluster?.stopAll();
  await database?.drop();
});

it('holds every invariant with two APIs, two workers and 32 clients, and never answers 5xx', async () => {
  const deadline = Date.now() + LOAD_SECONDS * 1000 + 120_000;
  let turn = 0;
  const baseUrl = (): string => (apis[turn++ % apis.length] as ManagedProcess).url;
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
  await sleep(LOAD_SECONDS * 1000);
  stopping = true;
  const result = await load;

  await waitForProjections(database.db, 60_000);
  const report = await checkInvariants(database.db, wallets, result.succeeded);
  console.log(
    `[load] ${LOAD_SECONDS} s, ${CLIENTS} clients: transfers succeeded: ${result.succeeded.length}, retried: ${result.retried}, rejected: ${JSON.stringify(Object.fromEntries(result.rejected))}, 5xx: ${result.fiveHundreds.length}`,
  );

  expect(result.fiveHundreds.map((reply) => JSON.stringify(reply.body))).toEqual([]);
  expect(result.retried, 'no process was killed: every request should have had an answer within 60 s').toBe(0);
  // A payment no longer pays bcrypt (the PIN verifier): the run must move hundreds of transfers,
  // not the few dozen a bcrypt-bound API managed (6,000+ in 20 s on 2 cores).
  expect(result.succeeded.length).toBeGreaterThan(300);
  expect(report.notExactlyOnce).toEqual([]);
  expect(report.unexplained).toEqual([]);
  expect(report.balanceMismatches).toEqual([]);
  expect(report.verifyDifferences).toEqual([]);
}, 300_000);
