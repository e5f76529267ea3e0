/**
 * Rate limits across real API processes: two `node bin/server.ts` processes
 * (RUN_WORKERS=false) on one database, configured only through the environment as deployed
 * (TRUST_PROXY_HOPS=1 behind a "proxy" on loopback, RATE_LIMIT_AUTH_MAX=3, METRICS_TOKEN).
 *
 * Separate processes are the strongest proof that the counters are shared: nothing in one
 * process's memory can reach the other, so a limit that holds across them lives in Postgres.
 * Restarting one of them shows a restart resets nothing. The same run shows the client is
 * read from X-Forwarded-For through the trusted hop, and that /metrics behind the proxy is
 * refused from loopback without the token.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../platform/embedded-postgres.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { processEnvironment, spawnEntryPoint, stopProcess, waitForHealth } from '../test/processes.ts';

const METRICS_TOKEN = 'metrics-token-processes-0123456789';
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;
const LOGIN = JSON.stringify({ email: 'nobody@example.com', password: 'wrong-password' });

interface ApiProcess {
  url: string;
  child: ChildProcess;
  log: () => string;
}

let database: TestDatabase<unknown>;
let dataDir: string;
const running: ApiProcess[] = [];

function environment(port: number): NodeJS.ProcessEnv {
  return processEnvironment(
    {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ADMIN_EMAIL: 'admin@processes.test',
      ADMIN_PASSWORD: 'processes-admin-1',
      JWT_SECRET: 'processes-secret-0123456789-abcdefghijklmnop',
      RATE_LIMIT_MAX: '1000',
      RATE_LIMIT_AUTH_MAX: '3',
      TRUST_PROXY_HOPS: '1',
      TRUST_PROXY_ADDRESSES: 'loopback',
      METRICS_TOKEN,
      RUN_WORKERS: 'false',
    },
    ['EMBEDDED_POSTGRES_PORT'],
  );
}

async function startApi(port?: number): Promise<ApiProcess> {
  const chosen = port ?? (await freePort());
  const child = spawnEntryPoint('bin/server.ts', environment(chosen));
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const api: ApiProcess = { url: `http://127.0.0.1:${chosen}`, child, log: () => output };
  running.push(api);
  await waitForHealth(api.url, child, { timeoutMs: START_TIMEOUT_MS, log: api.log });
  return api;
}

async function stopApi(api: ApiProcess): Promise<void> {
  running.splice(running.indexOf(api), 1);
  await stopProcess(api.child, STOP_TIMEOUT_MS);
}

/** A sign-in attempt as the proxy forwards it: the client's address appended to X-Forwarded-For. */
async function login(api: ApiProcess, client: string): Promise<number> {
  const response = await fetch(`${api.url}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.250, ${client}` },
    body: LOGIN,
  });
  return response.status;
}

let a: ApiProcess;
let b: ApiProcess;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'wallet-rate-limit-processes-'));
  // One after the other: the first creates the admin; starting both at once would only race for it.
  a = await startApi();
  b = await startApi();
}, 2 * START_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all([...running].map(stopApi));
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

it(
  'two API processes share one sign-in limit per client, and a restart resets nothing',
  async () => {
    const client = '198.51.100.40';
    const statuses = [
      await login(a, client),
      await login(b, client),
      await login(a, client),
      await login(b, client),
      await login(a, client),
    ];
    expect(statuses, `${a.log()}\n${b.log()}`).toEqual([401, 401, 401, 429, 429]);
    // The client is the address the proxy appended; another client behind it has its own budget.
    expect(await login(b, '198.51.100.41')).toBe(401);

    const port = Number(new URL(a.url).port);
    await stopApi(a);
    a = await startApi(port);
    expect(await login(a, client)).toBe(429);
  },
  3 * START_TIMEOUT_MS,
);

it('behind the proxy, /metrics from loopback needs the token', async () => {
  expect((await fetch(`${b.url}/metrics`)).status).toBe(404);
  expect((await fetch(`${b.url}/metrics`, { headers: { 'x-forwarded-for': '127.0.0.1' } })).status).toBe(404);
  const admitted = await fetch(`${b.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(admitted.status).toBe(200);
  expect(await admitted.text()).toContain('wallet_http_requests_total');
});
