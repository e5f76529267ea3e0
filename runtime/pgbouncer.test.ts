/**
 * The API and a worker through a real PgBouncer in transaction pooling mode: both
 * processes get DATABASE_URL = PgBouncer and LISTEN_DATABASE_URL = Postgres directly, as
 * deployed behind a pooler. The money flow - deposit settled by an admin, transfer, money
 * request accepted - reads its own writes at the first read after every reply, and an
 * operator's replay runs in the worker. The pooling is shown to be real (PgBouncer served the
 * transactions, on fewer server connections than it had clients), the LISTEN connections to
 * bypass it, and no session state (an advisory lock) to be left on a pooled server connection.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAdmin } from '../identity/admin.ts';
import { createLedger, type LedgerTables } from '../ledger/index.ts';
import { tablesView, withClient } from '../platform/database.ts';
import { freePort } from '../platform/embedded-postgres.ts';
import { VALID_REGISTRATION, VERIFIER } from '../test/app-harness.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { startPgBouncer, type PgBouncer, advisoryLocksIn } from '../test/pgbouncer.ts';
import { processEnvironment, spawnEntryPoint, stopProcess, waitForHealth, waitForOutput } from '../test/processes.ts';
import { readUntil } from '../test/wait.ts';

const ADMIN = { email: 'admin@pooler.test', password: 'pooler-admin-1' };
const PIN = VALID_REGISTRATION.transactionPin;
const POOL_SIZE = 4;
const LISTENERS = ['wallet-checkpoint-waiter', 'projection-wake-listener'];
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;

interface Running {
  child: ChildProcess;
  output: () => string;
}

let database: TestDatabase<unknown>;
let bouncer: PgBouncer;
let dataDir: string;
let apiUrl: string;
const running: Running[] = [];

function spawnRole(entry: 'bin/server.ts' | 'bin/worker.ts', port: number): Running {
  const env = processEnvironment(
    {
      DATABASE_URL: bouncer.url,
      LISTEN_DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      JWT_SECRET: 'pooler-secret-0123456789-abcdefghijklmnopq',
      RUN_WORKERS: 'false',
    },
    ['EMBEDDED_POSTGRES_PORT', 'DATABASE_OWNER_URL'],
  );
  const child = spawnEntryPoint(entry, env);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const started = { child, output: () => output.slice(-4000) };
  running.push(started);
  return started;
}

beforeAll(async () => {
  database = await createTestDatabase<unknown>();
  bouncer = await startPgBouncer(database.url, { poolSize: POOL_SIZE });
  dataDir = mkdtempSync(join(tmpdir(), 'wallet-pooler-'));
  const port = await freePort();
  apiUrl = `http://127.0.0.1:${port}`;
  const api = spawnRole('bin/server.ts', port);
  const worker = spawnRole('bin/worker.ts', await freePort());
  await waitForHealth(apiUrl, api.child, { timeoutMs: START_TIMEOUT_MS, log: api.output });
  await waitForOutput(worker.child, worker.output, /workers running/i, START_TIMEOUT_MS);
}, 180_000);

afterAll(async () => {
  await Promise.all(running.map((process) => stopProcess(process.child, STOP_TIMEOUT_MS)));
  await bouncer?.stop();
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function call(method: 'GET' | 'POST', path: string, token?: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${apiUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(method === 'POST' ? { 'idempotency-key': crypto.randomUUID() } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const reply = (await response.json()) as { success?: boolean; data?: unknown; message?: string };
  expect(response.status, `${method} ${path}: ${JSON.stringify(reply)}`).toBeLessThan(300);
  return reply.data;
}

const post = (token: string | undefined, path: string, body?: unknown) => call('POST', path, token, body ?? {});
const login = async (email: string, password: string) =>
  (await post(undefined, '/api/users/login', { email, password })) as string;
const balance = async (token: string) =>
  ((await post(token, '/api/users/get-user-info')) as { balance: number }).balance;
const historyIds = async (token: string) =>
  ((await post(token, '/api/transactions/get-all-transactions-by-user')) as { _id: string; status: string }[]).map(
    (row) => `${row._id}:${row.status}`,
  );
const requests = async (token: string) =>
  (await call('GET', '/api/requests/get-all-requests-by-user', token)) as { _id: string; status: string }[];

/**
 * The admin who activates the wallets (admin:create's code path, on the database): a second
 * admin, so that ADMIN may settle into them alone (money into an account the settling admin
 * activated waits for another admin).
 */
async function verifierToken(): Promise<string> {
  await createAdmin(database.db, createLedger({ db: tablesView<LedgerTables>(database.db) }), VERIFIER);
  return login(VERIFIER.email, VERIFIER.password);
}

async function walletUser(adminToken: string, email: string): Promise<{ id: string; token: string }> {
  await post(undefined, '/api/users/register', { ...VALID_REGISTRATION, email });
  const users = (await call('GET', '/api/users/get-all-users', adminToken)) as { _id: string; email: string }[];
  const id = users.find((user) => user.email === email)?._id ?? '';
  await post(adminToken, '/api/users/update-user-verified-status', { selectedUser: id, isVerified: true });
  return { id, token: await login(email, VALID_REGISTRATION.password) };
}

it('walks the money flow through PgBouncer, each read right after the reply it follows', async () => {
  const admin = await login(ADMIN.email, ADMIN.password);
  const verifier = await verifierToken();
  const asha = await walletUser(verifier, 'asha@pooler.test');
  const ravi = await walletUser(verifier, 'ravi@pooler.test');

  const deposit = (await post(asha.token, '/api/transactions/deposit-funds', {
    amount: 5_000,
    reference: 'salary',
    transactionPin: PIN,
    paymentMethod: 'upi',
    upiDetails: { upiId: 'asha@okbank' },
  })) as { transactionId: string };
  await post(admin, '/api/transactions/settle-deposit', { depositId: deposit.transactionId });
  expect(await balance(asha.token)).toBe(5_000);
  expect(await historyIds(asha.token)).toContain(`${deposit.transactionId}:success`);

  const sent = (await post(asha.token, '/api/transactions/transfer-funds', {
    receiver: ravi.id,
    amount: 300,
    reference: 'concert tickets',
    transactionPin: PIN,
  })) as { transactionId: string };
  expect(await balance(asha.token)).toBe(4_700);
  expect(await balance(ravi.token)).toBe(300);
  expect((await historyIds(ravi.token)).some((row) => row.startsWith(sent.transactionId))).toBe(true);

  await post(ravi.token, '/api/requests/send-request', { receiver: asha.id, amount: 80, reference: 'cab share' });
  const pending = (await requests(asha.token)).find((row) => row.status === 'pending');
  expect(pending).toBeDefined();
  await post(asha.token, '/api/requests/update-request-status', {
    requestId: pending?._id,
    status: 'accepted',
    transactionPin: PIN,
  });
  expect((await requests(ravi.token)).find((row) => row._id === pending?._id)?.status).toBe('accepted');
  expect(await balance(ravi.token)).toBe(380);
  expect(await balance(asha.token)).toBe(4_620);
}, 120_000);

it("runs an operator's replay in the worker through PgBouncer, the reads unchanged after it", async () => {
  const admin = await login(ADMIN.email, ADMIN.password);
  const before = await balance(await login('asha@pooler.test', VALID_REGISTRATION.password));
  await post(admin, '/api/admin/projections/accounts/replay', { reason: 'pooler test' });
  const state = await readUntil(
    'the replay to finish',
    async () => ((await call('GET', '/api/admin/projections/accounts/replay', admin)) as { state: string }).state,
    (current) => current === 'done' || current === 'failed',
    { timeoutMs: 60_000, intervalMs: 200 },
  );
  expect(state).not.toBe('failed');
  expect(state).toBe('done');
  expect(await balance(await login('asha@pooler.test', VALID_REGISTRATION.password))).toBe(before);
}, 90_000);

it('pooled the transactions on fewer server connections than clients, in transaction mode', async () => {
  const pools = (await bouncer.show('POOLS')).filter((row) => row.database === database.name);
  expect(pools.map((row) => row.pool_mode)).toEqual(['transaction']);
  const stats = (await bouncer.show('STATS')).find((row) => row.database === database.name);
  expect(Number(stats?.total_xact_count)).toBeGreaterThan(100);
  const clients = (await bouncer.show('CLIENTS')).filter((row) => row.database === database.name);
  const servers = (await bouncer.show('SERVERS')).filter((row) => row.database === database.name);
  expect(servers.length).toBeLessThanOrEqual(POOL_SIZE);
  expect(clients.length).toBeGreaterThan(servers.length);
});

it('keeps the LISTEN connections off PgBouncer, and leaves no session lock on a pooled server connection', async () => {
  const pooledPorts = new Set((await bouncer.show('SERVERS')).map((row) => Number(row.local_port)));
  const backends = await withClient(database.ownerUrl, async (client) => {
    const { rows } = await client.query<{ application_name: string; client_port: number }>(
      'select application_name, client_port from pg_stat_activity where datname = $1 and application_name = any($2)',
      [database.name, LISTENERS],
    );
    return rows;
  });
  for (const name of LISTENERS) {
    const direct = backends.filter((row) => row.application_name === name && !pooledPorts.has(row.client_port));
    expect(direct.length, `${name}: a direct connection (backends: ${JSON.stringify(backends)})`).toBeGreaterThan(0);
  }
  const locks = await advisoryLocksIn(database.ownerUrl, database.name);
  expect(locks).toBe(0);
});
