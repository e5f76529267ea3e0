/**
 * The real entry points as child processes, for the suites that test what only a process
 * shows (start-up refusals, signals, several processes on one database, crashes, the browser
 * journey): `node bin/<entry>.ts` with an environment that configures only what the test
 * says, waiting until it serves, and stopping it as an operator does (SIGTERM, then SIGKILL).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ENTRY_NODE_FLAGS } from '../runtime/node-flags.ts';
import { WaitTimeout, waitUntil } from './wait.ts';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What a developer's shell may configure that a test process must not reach: the sandbox card provider, the outbox mailer and no Google instead. */
const EXTERNAL_SERVICES = [
  'STRIPE_SECRET_KEY',
  'STRIPE_PUBLISHABLE_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'GOOGLE_CLIENT_ID',
  'GOOGLE_CLIENT_SECRET',
  'SMTP_URL',
] as const;

const HEALTH_POLL_MS = 200;
const HEALTH_REQUEST_TIMEOUT_MS = 2_000;

/** The runner's environment, quiet and on loopback, with `settings` on top and the external services and `unset` removed. */
export function processEnvironment(settings: Record<string, string>, unset: readonly string[] = []): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...settings };
  for (const key of [...EXTERNAL_SERVICES, ...unset]) delete env[key];
  return env;
}

/**
 * `node <flags> <entry>` from the repository root, stdout and stderr piped for the test to read;
 * with the Node flags the entry runs with in production (runtime/node-flags.ts), so a test's
 * process has the memory behaviour of a deployed one.
 */
export function spawnEntryPoint(
  entry: 'bin/server.ts' | 'bin/worker.ts' | 'bin/migrate.ts',
  env: NodeJS.ProcessEnv,
): ChildProcess {
  const nodeFlags = entry === 'bin/migrate.ts' ? [] : ENTRY_NODE_FLAGS[entry];
  return spawn(process.execPath, [...nodeFlags, entry], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

export interface HealthWait {
  timeoutMs: number;
  /** The process's output so far, for the error. */
  log: () => string;
}

/** Resolves once GET /api/health answers 200. A process that exits first, or is not healthy in time (it is then killed), fails with its log. */
export async function waitForHealth(baseUrl: string, child: ChildProcess, wait: HealthWait): Promise<void> {
  try {
    await waitUntil(
      `${baseUrl}/api/health to answer 200`,
      async () => {
        throwIfExited(child, wait.log);
        const reply = await fetch(`${baseUrl}/api/health`, {
          signal: AbortSignal.timeout(HEALTH_REQUEST_TIMEOUT_MS),
        }).catch(() => undefined);
        return reply?.ok;
      },
      { timeoutMs: wait.timeoutMs, intervalMs: HEALTH_POLL_MS, detail: wait.log },
    );
  } catch (error) {
    if (error instanceof WaitTimeout) child.kill('SIGKILL');
    throw error;
  }
}

/** Resolves once the process has printed a line matching `pattern`; fails with its log if it exits first or not in time. */
export async function waitForOutput(
  child: ChildProcess,
  log: () => string,
  pattern: RegExp,
  timeoutMs: number,
): Promise<void> {
  await waitUntil(
    `the process to print ${String(pattern)}`,
    () => {
      throwIfExited(child, log);
      return pattern.test(log());
    },
    { timeoutMs, intervalMs: HEALTH_POLL_MS, detail: log },
  );
}

function throwIfExited(child: ChildProcess, log: () => string): void {
  if (child.exitCode !== null || child.signalCode !== null)
    throw new Error(`The process exited during start-up (${child.exitCode ?? child.signalCode}):\n${log()}`);
}

/** SIGTERM lets it stop gracefully (its embedded Postgres too); SIGKILL only when it hangs past `graceMs`. Resolves once it has exited. */
export async function stopProcess(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    console.error(`[test] process ${child.pid} did not stop within ${graceMs} ms of SIGTERM; killing it`);
    child.kill('SIGKILL');
  }, graceMs);
  await exited;
  clearTimeout(timer);
}
