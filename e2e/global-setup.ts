/**
 * Global setup of the browser end-to-end suite: builds the web app when it is stale, then
 * starts the real server (`node bin/server.ts`) as a child process on a fresh database -
 * its own embedded Postgres in a temp DATA_DIR on a free port, or, when DATABASE_URL is set,
 * a new database on that server - and waits for /api/health. Either way the server migrates
 * as the owner and serves as the runtime role, as in production: on the embedded server by
 * default, on DATABASE_URL's server with DATABASE_OWNER_URL (the superuser) beside a
 * DATABASE_URL naming the test runtime login (test/logins.ts). Teardown stops it with SIGTERM
 * and waits (SIGKILL only if it hangs), then removes the temp data and the database.
 * The tests get the base URL and the admin's credentials through `inject`.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { withClient } from '../platform/database.ts';
import { freePort } from '../platform/embedded-postgres.ts';
import { TEST_RUNTIME_LOGIN, withLogin } from '../test/logins.ts';
import { E2E_ADMIN, OUTPUT_DIR } from './helpers/constants.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminEmail: string;
    adminPassword: string;
  }
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER_LOG = join(ROOT, OUTPUT_DIR, 'server.log');
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;

let server: ChildProcess | undefined;
let dataDir: string | undefined;
let database: { adminUrl: string; name: string } | undefined;

export async function setup(project: TestProject): Promise<void> {
  mkdirSync(join(ROOT, OUTPUT_DIR), { recursive: true });
  execFileSync(process.execPath, [join(ROOT, 'scripts/ensure-web-build.ts')], { cwd: ROOT, stdio: 'inherit' });

  dataDir = mkdtempSync(join(tmpdir(), 'wallet-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    ADMIN_EMAIL: E2E_ADMIN.email,
    ADMIN_PASSWORD: E2E_ADMIN.password,
    // One browser makes many calls from one IP; the spec's 100 / 10 per 15 min would refuse them.
    RATE_LIMIT_MAX: '100000',
    RATE_LIMIT_AUTH_MAX: '100000',
    LOG_LEVEL: 'warn',
    RUN_WORKERS: 'true',
  };
  // Card payments through the offline sandbox, whatever the developer's shell has configured.
  for (const key of ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET', 'GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET', 'SMTP_URL', 'JWT_SECRET'])
    delete env[key];
  if (process.env.DATABASE_URL) {
    const name = `wallet_e2e_${process.pid}`;
    database = { adminUrl: process.env.DATABASE_URL, name };
    await withClient(database.adminUrl, async (client) => {
      await client.query(`drop database if exists ${name}`);
      await client.query(`create database ${name}`);
    });
    const url = new URL(database.adminUrl);
    url.pathname = `/${database.name}`;
    env.DATABASE_OWNER_URL = url.toString();
    env.DATABASE_URL = withLogin(url.toString(), TEST_RUNTIME_LOGIN);
  } else {
    delete env.DATABASE_URL;
    delete env.DATABASE_OWNER_URL;
    env.EMBEDDED_POSTGRES_PORT = String(await freePort());
  }

  const log = createWriteStream(SERVER_LOG);
  server = spawn(process.execPath, ['bin/server.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);
  await waitForHealth(baseUrl, server);

  project.provide('baseUrl', baseUrl);
  project.provide('adminEmail', E2E_ADMIN.email);
  project.provide('adminPassword', E2E_ADMIN.password);
}

export async function teardown(): Promise<void> {
  if (server) await stopServer(server);
  if (database) await dropDatabase(database);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

async function waitForHealth(baseUrl: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let exited = false;
  child.once('exit', () => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`The server exited during start-up:\n${serverLog()}`);
    try {
      const reply = await fetch(`${baseUrl}/api/health`);
      if (reply.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`The server did not answer /api/health within ${START_TIMEOUT_MS} ms:\n${serverLog()}`);
}

/** SIGTERM lets the server stop its embedded Postgres; SIGKILL only when it hangs. */
async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    console.error(`[e2e] the server did not stop within ${STOP_TIMEOUT_MS} ms; killing it`);
    child.kill('SIGKILL');
  }, STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

async function dropDatabase({ adminUrl, name }: { adminUrl: string; name: string }): Promise<void> {
  await withClient(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`)).catch((error: unknown) => console.error('[e2e] could not drop the test database', error));
}

function serverLog(): string {
  try {
    return readFileSync(SERVER_LOG, 'utf8').slice(-4000);
  } catch {
    return '(no server log)';
  }
}
