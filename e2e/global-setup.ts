/**
 * Global setup of the browser end-to-end suite: builds the web app when it is stale, then
 * starts the real server (`node bin/server.ts`) as a child process on a fresh database -
 * its own embedded Postgres in a temp DATA_DIR on a free port, or, when DATABASE_URL is set,
 * a new database on that server - and waits for /api/health. Either way the server migrates
 * as the owner and serves as the runtime role, as in production: on the embedded server by
 * default, on DATABASE_URL's server with DATABASE_OWNER_URL (the superuser) beside a
 * DATABASE_URL naming the test runtime login (test/logins.ts). Teardown stops it with SIGTERM
 * and waits (SIGKILL only if it hangs), then removes the temp data and the database.
 * Once it serves, a second admin is added with `node bin/admin-create.ts` (on the runtime
 * role's connection). The tests get the base URL and both admins' credentials through `inject`.
 */
import { execFileSync, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { withClient } from '../platform/database.ts';
import { embeddedRuntimePassword, embeddedRuntimeUrl } from '../platform/embedded-login.ts';
import { freePort } from '../platform/embedded-postgres.ts';
import { TEST_RUNTIME_LOGIN, withLogin } from '../test/logins.ts';
import { processEnvironment, ROOT, spawnEntryPoint, stopProcess, waitForHealth } from '../test/processes.ts';
import { E2E_ADMIN, E2E_REVIEWER, OUTPUT_DIR } from './helpers/constants.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminEmail: string;
    adminPassword: string;
    reviewerEmail: string;
    reviewerPassword: string;
  }
}

const SERVER_LOG = join(ROOT, OUTPUT_DIR, 'server.log');
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;

let server: ChildProcess | undefined;
let dataDir: string | undefined;
let database: { adminUrl: string; name: string } | undefined;

export async function setup(project: TestProject): Promise<void> {
  mkdirSync(join(ROOT, OUTPUT_DIR), { recursive: true });
  execFileSync(process.execPath, [join(ROOT, 'scripts/ensure-web-build.ts')], { cwd: ROOT, stdio: 'inherit' });
  assertProductionBuild();

  dataDir = mkdtempSync(join(tmpdir(), 'wallet-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const target = await databaseTarget();
  const env = processEnvironment(
    {
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      ADMIN_NAME: E2E_ADMIN.name,
      // One browser makes many calls from one IP; the spec's 100 / 10 per 15 min would refuse them.
      RATE_LIMIT_MAX: '100000',
      RATE_LIMIT_AUTH_MAX: '100000',
      RATE_LIMIT_READ_MAX: '100000',
      RUN_WORKERS: 'true',
      ...target.settings,
    },
    // A generated secret under the temp DATA_DIR, whatever the developer's shell has configured.
    ['JWT_SECRET', ...target.unset],
  );

  const log = createWriteStream(SERVER_LOG);
  server = spawnEntryPoint('bin/server.ts', env);
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);
  await waitForHealth(baseUrl, server, { timeoutMs: START_TIMEOUT_MS, log: serverLog });
  const runtimeUrl =
    target.settings.DATABASE_URL ??
    embeddedRuntimeUrl(Number(target.settings.EMBEDDED_POSTGRES_PORT), await embeddedRuntimePassword(dataDir), dataDir);
  addReviewer(env, runtimeUrl);

  project.provide('baseUrl', baseUrl);
  project.provide('adminEmail', E2E_ADMIN.email);
  project.provide('adminPassword', E2E_ADMIN.password);
  project.provide('reviewerEmail', E2E_REVIEWER.email);
  project.provide('reviewerPassword', E2E_REVIEWER.password);
}

/** `npm run admin:create` for the second admin, on the running server's database. */
function addReviewer(serverEnv: NodeJS.ProcessEnv, databaseUrl: string): void {
  const run = spawnSync(process.execPath, ['bin/admin-create.ts', '--email', E2E_REVIEWER.email], {
    cwd: ROOT,
    env: { ...serverEnv, DATABASE_URL: databaseUrl, ADMIN_PASSWORD: E2E_REVIEWER.password },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`admin:create failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
}

export async function teardown(): Promise<void> {
  if (server) await stopProcess(server, STOP_TIMEOUT_MS);
  if (database) await dropDatabase(database);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

/**
 * A new database on DATABASE_URL's server, migrated by the server as its owner and served as
 * the test runtime login; without DATABASE_URL the server's own embedded Postgres, on a free port.
 */
async function databaseTarget(): Promise<{ settings: Record<string, string>; unset: string[] }> {
  if (!process.env.DATABASE_URL)
    return {
      settings: { EMBEDDED_POSTGRES_PORT: String(await freePort()) },
      unset: ['DATABASE_URL', 'DATABASE_OWNER_URL'],
    };
  const name = `wallet_e2e_${process.pid}`;
  database = { adminUrl: process.env.DATABASE_URL, name };
  await withClient(database.adminUrl, async (client) => {
    await client.query(`drop database if exists ${name}`);
    await client.query(`create database ${name}`);
  });
  const url = new URL(database.adminUrl);
  url.pathname = `/${name}`;
  return {
    settings: { DATABASE_OWNER_URL: url.toString(), DATABASE_URL: withLogin(url.toString(), TEST_RUNTIME_LOGIN) },
    unset: [],
  };
}

async function dropDatabase({ adminUrl, name }: { adminUrl: string; name: string }): Promise<void> {
  await withClient(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`)).catch(
    (error: unknown) => console.error('[e2e] could not drop the test database', error),
  );
}

function serverLog(): string {
  try {
    return readFileSync(SERVER_LOG, 'utf8').slice(-4000);
  } catch {
    return '(no server log)';
  }
}

/** The suite tests what users get: a development build (React's dev runtime) would pass here and differ there. */
function assertProductionBuild(): void {
  const devChunks = readdirSync(join(ROOT, 'web/dist/assets')).filter((file) => file.includes('jsx-dev-runtime'));
  if (devChunks.length > 0) throw new Error(`web/dist is a development build (${devChunks.join(', ')}): rebuild it`);
}
