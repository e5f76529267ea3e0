/**
 * Metrics from both real processes: `node bin/server.ts` (RUN_WORKERS=false) and
 * `node bin/worker.ts` (WORKER_HEALTH_PORT) on one database, as docker-compose runs them. A
 * transfer made over HTTP moves the API's series (the append counter and its time, a
 * group-commit batch observed, the request histogram by route template, a read-after-reply
 * wait served by the worker's projections); each process serves its own default process
 * metrics; both serve projection lag per projection; the worker serves the job queues (mail
 * included) and its health probes. Every metric the Grafana dashboard and the alert rules
 * name is in one of the two scrapes.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../identity/admin.ts';
import { createLedger, type LedgerTables } from '../ledger/index.ts';
import { tablesView } from '../platform/database.ts';
import { freePort } from '../platform/embedded-postgres.ts';
import { VALID_REGISTRATION, VERIFIER } from './app-harness.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { metricNames, monitoringExpressions, scrapeHas } from './monitoring.ts';
import { processEnvironment, spawnEntryPoint, stopProcess, waitForHealth } from './processes.ts';
import { waitUntil } from './wait.ts';

const ADMIN = { email: 'admin@metrics.test', password: 'metrics-admin-1' };
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;
const PIN = '1234';

interface Running {
  child: ChildProcess;
  log: () => string;
}

let database: TestDatabase<unknown>;
let dataDir: string;
let apiUrl: string;
let workerUrl: string;
const running: Running[] = [];

function start(entry: 'bin/server.ts' | 'bin/worker.ts', env: NodeJS.ProcessEnv): Running {
  const child = spawnEntryPoint(entry, env);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const process = { child, log: () => output.slice(-4000) };
  running.push(process);
  return process;
}

async function waitForWorker(worker: Running): Promise<void> {
  await waitUntil(
    'the worker to answer /health/live',
    async () => {
      if (worker.child.exitCode !== null) throw new Error(`the worker exited:\n${worker.log()}`);
      return (await fetch(`${workerUrl}/health/live`).catch(() => undefined))?.ok;
    },
    { timeoutMs: START_TIMEOUT_MS, intervalMs: 200, detail: worker.log },
  );
}

beforeAll(async () => {
  database = await createTestDatabase<unknown>();
  dataDir = mkdtempSync(join(tmpdir(), 'wallet-metrics-'));
  const [apiPort, workerPort] = [await freePort(), await freePort()];
  apiUrl = `http://127.0.0.1:${apiPort}`;
  workerUrl = `http://127.0.0.1:${workerPort}`;
  const env = (settings: Record<string, string>) =>
    processEnvironment(
      {
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        PUBLIC_URL: apiUrl,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        JWT_SECRET: 'metrics-processes-secret-0123456789-abcdefgh',
        RUN_WORKERS: 'false',
        ...settings,
      },
      ['EMBEDDED_POSTGRES_PORT', 'DATABASE_OWNER_URL', 'METRICS_TOKEN'],
    );
  const api = start('bin/server.ts', env({ PORT: String(apiPort) }));
  const worker = start('bin/worker.ts', env({ WORKER_HEALTH_PORT: String(workerPort) }));
  await Promise.all([
    waitForHealth(apiUrl, api.child, { timeoutMs: START_TIMEOUT_MS, log: api.log }),
    waitForWorker(worker),
  ]);
}, 150_000);

afterAll(async () => {
  await Promise.all(running.map((process) => stopProcess(process.child, STOP_TIMEOUT_MS)));
  rmSync(dataDir, { recursive: true, force: true });
  await database?.drop();
});

async function call(method: 'GET' | 'POST', path: string, options: { token?: string; body?: unknown } = {}) {
  const response = await fetch(`${apiUrl}${path}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      'idempotency-key': crypto.randomUUID(),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const body = (await response.json()) as { success: boolean; data?: unknown; code?: string };
  return { status: response.status, body };
}

async function signIn(email: string, password: string): Promise<string> {
  const reply = await call('POST', '/api/users/login', { body: { email, password } });
  if (reply.status !== 200) throw new Error(`login ${email}: ${JSON.stringify(reply.body)}`);
  return reply.body.data as string;
}

/**
 * Registered, activated and signed in, over HTTP. `activator` is a second admin (made by
 * admin:create's code path): money into an account the settling admin activated waits for another.
 */
async function wallets(activator: string, emails: string[]): Promise<{ id: string; token: string }[]> {
  for (const email of emails) {
    const registered = await call('POST', '/api/users/register', {
      body: { ...VALID_REGISTRATION, email, transactionPin: PIN },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  }
  const users = (await call('GET', '/api/users/get-all-users', { token: activator })).body.data as {
    _id: string;
    email: string;
  }[];
  const result: { id: string; token: string }[] = [];
  for (const email of emails) {
    const id = users.find((user) => user.email === email)?._id ?? '';
    const activated = await call('POST', '/api/users/update-user-verified-status', {
      token: activator,
      body: { selectedUser: id, isVerified: true },
    });
    expect(activated.status).toBe(200);
    result.push({ id, token: await signIn(email, VALID_REGISTRATION.password) });
  }
  return result;
}

async function scrape(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/metrics`);
  expect(response.status).toBe(200);
  return response.text();
}

/** The value of the one sample of `name` whose labels include `labels`; undefined when there is none. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/\b(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => present[key] === value)) return Number(match[3]);
  }
  return undefined;
}

const PROJECTIONS = ['accounts', 'history', 'money_requests'];
const PROCESS_METRICS = ['process_resident_memory_bytes', 'nodejs_heap_size_used_bytes'];

describe('metrics of the real API and worker processes', () => {
  let apiBefore: string;
  let apiAfter: string;
  let workerAfter: string;

  beforeAll(async () => {
    const admin = await signIn(ADMIN.email, ADMIN.password);
    await createAdmin(database.db, createLedger({ db: tablesView<LedgerTables>(database.db) }), VERIFIER);
    const verifier = await signIn(VERIFIER.email, VERIFIER.password);
    const [payer, payee] = await wallets(verifier, ['payer@metrics.test', 'payee@metrics.test']);
    if (!payer || !payee) throw new Error('no wallets');
    const deposit = await call('POST', '/api/transactions/deposit-funds', {
      token: payer.token,
      body: {
        amount: 500,
        reference: 'metrics',
        transactionPin: PIN,
        paymentMethod: 'upi',
        upiDetails: { upiId: 'payer@okbank' },
      },
    });
    expect(deposit.status, JSON.stringify(deposit.body)).toBe(200);
    const { transactionId } = deposit.body.data as { transactionId: string };
    expect(
      (await call('POST', '/api/transactions/settle-deposit', { token: admin, body: { depositId: transactionId } }))
        .status,
    ).toBe(200);

    apiBefore = await scrape(apiUrl);
    const transfer = await call('POST', '/api/transactions/transfer-funds', {
      token: payer.token,
      body: { receiver: payee.id, amount: 120, reference: 'metrics', transactionPin: PIN },
    });
    expect(transfer.status, JSON.stringify(transfer.body)).toBe(200);
    const refused = await call('POST', '/api/transactions/transfer-funds', {
      token: payer.token,
      body: { receiver: payee.id, amount: 100_000, reference: 'too much', transactionPin: PIN },
    });
    expect(refused.status).toBe(400);
    apiAfter = await scrape(apiUrl);
    workerAfter = await scrape(workerUrl);
  }, 120_000);

  it('the API counts and times the transfer, observes its group-commit batch and its read-after-reply wait', () => {
    const moved = (name: string, labels: Record<string, string> = {}) =>
      (sample(apiAfter, name, labels) ?? 0) - (sample(apiBefore, name, labels) ?? 0);
    expect(moved('wallet_ledger_appends_total', { command: 'transfer' })).toBe(1);
    expect(moved('wallet_ledger_append_duration_seconds_count', { command: 'transfer' })).toBe(1);
    expect(moved('wallet_ledger_append_duration_seconds_sum', { command: 'transfer' })).toBeGreaterThan(0);
    expect(moved('wallet_command_failures_total', { command: 'transfer', reason: 'insufficient_funds' })).toBe(1);
    // The transfer's append went through the batcher: one more batch, of at least one command.
    expect(moved('wallet_ledger_append_batch_size_count')).toBeGreaterThanOrEqual(1);
    expect(moved('wallet_ledger_append_batch_size_sum')).toBeGreaterThanOrEqual(1);
    const transferRoute = { method: 'POST', route: '/api/transactions/transfer-funds', status: '200' };
    expect(moved('wallet_http_request_duration_seconds_count', transferRoute)).toBe(1);
    expect(moved('wallet_http_requests_total', transferRoute)).toBe(1);
    // The reply waited for the worker's projections (another process) to apply it.
    expect(moved('wallet_read_after_reply_wait_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(sample(apiAfter, 'wallet_read_after_reply_timeouts_total')).toBe(0);
    expect(sample(apiAfter, 'wallet_pin_pool_queue_depth')).toBeGreaterThanOrEqual(0);
  });

  it('each process serves its own default process metrics and the projection lag per projection', () => {
    for (const [name, text] of [
      ['api', apiAfter],
      ['worker', workerAfter],
    ] as const) {
      for (const metric of PROCESS_METRICS) expect(sample(text, metric), `${name} ${metric}`).toBeGreaterThan(0);
      // Measured between scrapes: present from the first, possibly 0 on it.
      expect(sample(text, 'nodejs_eventloop_lag_seconds'), name).toBeGreaterThanOrEqual(0);
      expect(text, name).toContain('# TYPE nodejs_gc_duration_seconds histogram');
      for (const projection of PROJECTIONS) {
        expect(
          sample(text, 'wallet_projection_lag_events', { projection }),
          `${name} ${projection}`,
        ).toBeGreaterThanOrEqual(0);
        expect(
          sample(text, 'wallet_projection_lag_seconds', { projection }),
          `${name} ${projection}`,
        ).toBeGreaterThanOrEqual(0);
      }
    }
    // Two processes, two registries: the worker serves no HTTP series and no batch sizes of its own.
    expect(sample(workerAfter, 'process_resident_memory_bytes')).not.toBe(
      sample(apiAfter, 'process_resident_memory_bytes'),
    );
    expect(workerAfter).not.toContain('wallet_http_requests_total');
  });

  it('the worker serves the job queues, mail included, and its health probes', async () => {
    for (const queue of ['notifications.email', 'projections.catch-up', 'projections.replay']) {
      for (const metric of ['wallet_job_queue_depth', 'wallet_job_queue_active', 'wallet_job_queue_failed'])
        expect(sample(workerAfter, metric, { queue }), `${metric} ${queue}`).toBeGreaterThanOrEqual(0);
    }
    expect(sample(workerAfter, 'wallet_ledger_verify_differences')).toBe(0);
    expect((await fetch(`${workerUrl}/health/live`)).status).toBe(200);
    const ready = await fetch(`${workerUrl}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready' });
    expect((await fetch(`${apiUrl}/api/health/ready`)).status).toBe(200);
  });

  it('serves every metric the Grafana dashboard and the alert rules name', () => {
    const names = [...new Set(monitoringExpressions().flatMap(metricNames))];
    expect(names.length).toBeGreaterThan(15);
    const missing = names.filter((name) => !scrapeHas(apiAfter, name) && !scrapeHas(workerAfter, name));
    expect(missing).toEqual([]);
  });
});
