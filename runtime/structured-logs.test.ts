/**
 * Structured logs from real processes: `node bin/server.ts` (RUN_WORKERS=false)
 * and `node bin/worker.ts` on one database. Every line either writes, on stdout or stderr, is
 * a JSON object with level, time and service; and one request's UUID can be followed from
 * the API's log line (and its X-Request-Id header) into the ledger event it appended, and
 * from an admin's request into the mail job it enqueued and the worker's line that sent it.
 * The worker logs at debug, so its projection drains name the event positions they reached.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../platform/embedded-postgres.ts';
import { VALID_REGISTRATION } from '../test/app-harness.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { processEnvironment, spawnEntryPoint, stopProcess, waitForHealth } from '../test/processes.ts';
import { waitUntil } from '../test/wait.ts';

const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;
const WAIT_FOR_LINE_MS = 30_000;
const ADMIN = { email: 'admin@logs.test', password: 'logs-admin-password-1' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type LogLine = Record<string, unknown>;

interface Running {
  child: ChildProcess;
  /** Everything written so far, stdout and stderr in arrival order. */
  output: () => string;
}

let database: TestDatabase<unknown>;
let dataDir: string;
let api: Running;
let worker: Running;
let apiUrl: string;

function spawnRole(entry: 'bin/server.ts' | 'bin/worker.ts' | 'bin/migrate.ts', env: Record<string, string>): Running {
  const child = spawnEntryPoint(
    entry,
    processEnvironment(
      {
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        JWT_SECRET: 'logs-secret-0123456789-abcdefghijklmnopqrs',
        RUN_WORKERS: 'false',
        ...env,
      },
      ['EMBEDDED_POSTGRES_PORT', 'DATABASE_OWNER_URL'].filter((key) => !(key in env)),
    ),
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return { child, output: () => output };
}

/** Every line is a JSON log line of `service`: level, ISO time, and a UUID wherever a request id is named. */
function expectJsonLines(running: Running, service: string): LogLine[] {
  expect(running.output().endsWith('\n'), running.output()).toBe(true);
  const lines = linesOf(running);
  for (const line of lines) {
    expect(line, JSON.stringify(line)).toMatchObject({ level: expect.any(Number), service });
    expect(new Date(String(line.time)).toISOString(), JSON.stringify(line)).toBe(line.time);
    if ('reqId' in line) expect(line.reqId).toMatch(UUID);
  }
  return lines;
}

/** The complete lines so far, parsed (a line that is not JSON fails the test with the whole output). */
function linesOf(running: Running): LogLine[] {
  const text = running.output();
  return text
    .split('\n')
    .slice(0, -1)
    .map((line) => {
      try {
        return JSON.parse(line) as LogLine;
      } catch {
        throw new Error(`not a JSON line: ${JSON.stringify(line)}\n--- whole output:\n${text}`);
      }
    });
}

async function waitForLine(running: Running, what: string, matches: (line: LogLine) => boolean): Promise<LogLine> {
  return waitUntil(`a log line ${what}`, () => linesOf(running).find(matches), {
    timeoutMs: WAIT_FOR_LINE_MS,
    intervalMs: 100,
    detail: running.output,
  });
}

async function post(path: string, body: unknown, token?: string): Promise<Response> {
  return fetch(`${apiUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

beforeAll(async () => {
  database = await createTestDatabase<unknown>();
  dataDir = mkdtempSync(join(tmpdir(), 'wallet-logs-'));
  const port = await freePort();
  apiUrl = `http://127.0.0.1:${port}`;
  api = spawnRole('bin/server.ts', { PORT: String(port), PUBLIC_URL: apiUrl, LOG_LEVEL: 'info' });
  await waitForHealth(apiUrl, api.child, { timeoutMs: START_TIMEOUT_MS, log: api.output });
  worker = spawnRole('bin/worker.ts', { PUBLIC_URL: apiUrl, LOG_LEVEL: 'debug' });
  await waitForLine(worker, 'saying the workers run', (line) => /workers running/i.test(String(line.msg)));
}, START_TIMEOUT_MS * 2);

afterAll(async () => {
  await Promise.all([api, worker].filter(Boolean).map((running) => stopProcess(running.child, STOP_TIMEOUT_MS)));
  rmSync(dataDir, { recursive: true, force: true });
  await database.drop();
});

describe('logs of the API and worker processes', () => {
  it('follow one UUID from the request to its ledger event and projection, and from an admin request to its e-mail; every line is JSON', async () => {
    // An X-Request-Id from a client that is no trusted proxy is ignored: the server picks the id.
    const forged = '00000000-0000-4000-8000-000000000000';
    const registered = await fetch(`${apiUrl}/api/users/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': forged },
      body: JSON.stringify({ ...VALID_REGISTRATION, email: 'meera@logs.test' }),
    });
    expect(registered.status).toBe(201);
    const registration = registered.headers.get('x-request-id') ?? '';
    expect(registration).toMatch(UUID);
    expect(registration).not.toBe(forged);

    // HTTP -> ledger: the WalletOpened event names the request in its metadata.
    const { rows: events } = await sql<{ position: bigint; type: string; stream_id: string }>`
      select position, type, stream_id from ledger.events where metadata->>'requestId' = ${registration}`.execute(
      database.db,
    );
    expect(events).toEqual([expect.objectContaining({ type: 'WalletOpened' })]);
    const position = events[0]?.position ?? 0n;
    await waitForLine(api, `with reqId ${registration}`, (line) => line.reqId === registration);
    // ledger -> projection: the worker's drains say which position each projection reached.
    for (const projection of ['accounts', 'history'])
      await waitForLine(
        worker,
        `of the ${projection} projection reaching position ${position}`,
        (line) =>
          line.msg === 'projection drained' &&
          line.projection === projection &&
          BigInt(String(line.position)) >= position,
      );

    // HTTP -> mail job -> e-mail: the admin activates the account, the worker sends the notice.
    const login = await post('/api/users/login', { email: ADMIN.email, password: ADMIN.password });
    const token = ((await login.json()) as { data: string }).data;
    const { rows: users } = await sql<{ id: string }>`
      select id from identity.users where email = 'meera@logs.test'`.execute(database.db);
    const activated = await post(
      '/api/users/update-user-verified-status',
      { selectedUser: users[0]?.id, isVerified: true },
      token,
    );
    expect(activated.status).toBe(200);
    const activation = activated.headers.get('x-request-id') ?? '';
    expect(activation).toMatch(UUID);
    expect(activation).not.toBe(registration);
    await waitForLine(api, `with reqId ${activation}`, (line) => line.reqId === activation);
    const { rows: jobs } = await sql<{ id: string }>`
      select id::text as id from pgboss.job where data->>'requestId' = ${activation}`.execute(database.db);
    expect(jobs).toHaveLength(1);
    const sent = await waitForLine(worker, `sending job ${jobs[0]?.id}`, (line) => line.msg === 'mail sent');
    expect(sent).toMatchObject({
      service: 'worker',
      component: 'mail',
      jobId: jobs[0]?.id,
      requestId: activation,
      outcome: 'sent',
    });

    // Stopped, so the shut-down lines are in too: every line of both processes is a JSON log line.
    await Promise.all([api, worker].map((running) => stopProcess(running.child, STOP_TIMEOUT_MS)));
    expect(expectJsonLines(worker, 'worker').length).toBeGreaterThan(3);
    expect(expectJsonLines(api, 'api').some((line) => /Wallet is running at/.test(String(line.msg)))).toBe(true);
  });

  it('migrate says what it did in a JSON line too', async () => {
    const migrate = spawnRole('bin/migrate.ts', { DATABASE_OWNER_URL: database.ownerUrl });
    const code = await new Promise<number | null>((resolve) => migrate.child.once('exit', resolve));
    expect(code, migrate.output()).toBe(0);
    expect(expectJsonLines(migrate, 'migrate')).toContainEqual(
      expect.objectContaining({ msg: 'Database is up to date.', applied: [] }),
    );
  });
});
