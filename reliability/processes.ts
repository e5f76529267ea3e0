/**
 * Real API and worker processes for the reliability suite: `node bin/server.ts`
 * (RUN_WORKERS=false) and `node bin/worker.ts` on one database (connected as the runtime
 * role: the callers pass a TestDatabase's runtime `url`), started, killed with
 * SIGKILL and restarted; plus the HTTP client the load generators use (retry the same
 * Idempotency-Key on any network error or 5xx until a definite answer).
 */
import type { ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../platform/embedded-postgres.ts';
import { processEnvironment, ROOT, spawnEntryPoint, stopProcess, waitForHealth } from '../test/processes.ts';

export const LOG_DIR = join(ROOT, 'test-output', 'reliability');
export const RELIABILITY_ADMIN = { email: 'admin@reliability.test', password: 'reliability-admin-1' };
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

export type Role = 'api' | 'worker';

export interface ManagedProcess {
  role: Role;
  name: string;
  /** Base URL (API only). */
  url: string;
  child: ChildProcess | undefined;
  start(): Promise<void>;
  kill9(): Promise<void>;
  stop(): Promise<void>;
  log(): string;
}

export interface Cluster {
  databaseUrl: string;
  dataDir: string;
  /** `env` adds to or overrides the cluster's environment for this process (e.g. a setting under test). */
  spawn(role: Role, name: string, env?: Record<string, string>): Promise<ManagedProcess>;
  stopAll(): Promise<void>;
}

export function createCluster(databaseUrl: string): Cluster {
  mkdirSync(LOG_DIR, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'wallet-reliability-'));
  const processes: ManagedProcess[] = [];
  return {
    databaseUrl,
    dataDir,
    spawn: async (role, name, env = {}) => {
      const managed = await managedProcess(role, name, databaseUrl, dataDir, env);
      processes.push(managed);
      await managed.start();
      return managed;
    },
    stopAll: async () => {
      await Promise.all(processes.map((managed) => managed.stop()));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function baseEnv(databaseUrl: string, dataDir: string, port: number): NodeJS.ProcessEnv {
  return processEnvironment(
    {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ADMIN_EMAIL: RELIABILITY_ADMIN.email,
      ADMIN_PASSWORD: RELIABILITY_ADMIN.password,
      // Tokens must survive restarts, and every process must accept every other's tokens.
      JWT_SECRET: 'reliability-secret-0123456789-abcdefghijklmnop',
      RATE_LIMIT_MAX: '10000000',
      RATE_LIMIT_AUTH_MAX: '10000000',
      // Signed-in reads have a budget of their own (issue 41): off too, or B2's baseline reads
      // are answered 429 once an account has made 600 of them.
      RATE_LIMIT_READ_MAX: '10000000',
      RUN_WORKERS: 'false',
    },
    // No DATABASE_OWNER_URL: the processes run as the runtime role on a migrated database and
    // must not migrate (a start with pending migrations refuses instead).
    ['EMBEDDED_POSTGRES_PORT', 'DATABASE_OWNER_URL'],
  );
}

async function managedProcess(
  role: Role,
  name: string,
  databaseUrl: string,
  dataDir: string,
  env: Record<string, string>,
): Promise<ManagedProcess> {
  const port = await freePort();
  const logFile = join(LOG_DIR, `${name}.log`);
  let log: WriteStream | undefined;
  const managed: ManagedProcess = {
    role,
    name,
    url: `http://127.0.0.1:${port}`,
    child: undefined,
    start: async () => {
      log ??= createWriteStream(logFile, { flags: 'w' });
      const child = spawnEntryPoint(role === 'api' ? 'bin/server.ts' : 'bin/worker.ts', {
        ...baseEnv(databaseUrl, dataDir, port),
        ...env,
      });
      child.stdout?.pipe(log, { end: false });
      child.stderr?.pipe(log, { end: false });
      managed.child = child;
      if (role === 'api')
        await waitForHealth(managed.url, child, { timeoutMs: START_TIMEOUT_MS, log: () => managed.log() });
      else await waitForLine(child, /workers running/i, () => managed.log());
    },
    kill9: async () => {
      const child = managed.child;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (managed.child) await stopProcess(managed.child, STOP_TIMEOUT_MS);
      log?.end();
    },
    log: () => {
      try {
        return readFileSync(logFile, 'utf8').slice(-4000);
      } catch {
        return '(no log)';
      }
    },
  };
  return managed;
}

async function waitForLine(child: ChildProcess, pattern: RegExp, log: () => string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`worker not started within ${START_TIMEOUT_MS} ms:\n${log()}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      if (pattern.test(chunk.toString('utf8'))) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`worker exited during start-up:\n${log()}`));
    });
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface Reply {
  status: number;
  body: { success?: boolean; message?: string; code?: string; data?: unknown };
}

/** One HTTP call; throws on a network error or a non-JSON answer. */
export async function call(
  baseUrl: string,
  method: 'GET' | 'POST',
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Reply> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Reply['body'] };
}

export interface DefiniteOptions {
  /** Gives up (throws) after this; the callers bound their whole run with it. */
  deadline: number;
  /** Every 5xx seen, for the "no 5xx" checks (a 503 while a process is down is expected in the crash test). */
  on5xx?: (reply: Reply) => void;
  /** Which base URL to try next (several API processes, or one that restarts). */
  baseUrl: () => string;
  /** Every attempt that got no HTTP answer (connection refused or reset, timeout), by the base URL it went to. */
  onNetworkError?: (baseUrl: string) => void;
}

/** Calls until a definite answer (a 2xx or 4xx), same body and headers (so the same Idempotency-Key) every time. */
export async function callUntilDefinite(
  method: 'GET' | 'POST',
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number },
  definite: DefiniteOptions,
): Promise<Reply & { attempts: number }> {
  for (let attempts = 1; ; attempts += 1) {
    const baseUrl = definite.baseUrl();
    try {
      const reply = await call(baseUrl, method, path, options);
      if (reply.status < 500) return { ...reply, attempts };
      definite.on5xx?.(reply);
    } catch {
      // Connection refused or reset, timeout, half-written body: unknown outcome; retry.
      definite.onNetworkError?.(baseUrl);
    }
    if (Date.now() > definite.deadline)
      throw new Error(`${method} ${path}: no definite answer before the deadline (${attempts} attempts)`);
    // Not a wait for the system: a client's retry backoff, part of the load it generates.
    await sleep(Math.min(50 * attempts, 500));
  }
}
