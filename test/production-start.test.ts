/**
 * Production mode at the real entry points: `node bin/server.ts` and `node bin/worker.ts`
 * as child processes with NODE_ENV=production. Regression: with STRIPE_SECRET_KEY unset the
 * server ran the sandbox card provider, which credits any amount for `pm_card_visa`; now it
 * refuses to start, naming CARD_PROVIDER, and starts (on a database role with a password
 * of its own) once CARD_PROVIDER=sandbox allows the sandbox explicitly. The worker refuses
 * without JWT_SECRET (a per-container generated secret is how reset codes stopped arriving).
 * Regression: a DATABASE_URL naming a superuser (or the schema owner) started normally,
 * giving the app the power to rewrite the ledger; both refuse it now, naming the problem, and
 * start as a runtime login (a member of wallet_runtime). The server refuses the local demo's
 * collection account, which deposits would otherwise tell customers to pay into.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../platform/embedded-postgres.ts';
import { adminQuery, createTestDatabase, type TestDatabase } from './database.ts';
import { spawnEntryPoint } from './processes.ts';

const START_TIMEOUT_MS = 60_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The line each entry point prints once it is serving. */
const STARTED = /Wallet is running|workers running/i;

/**
 * Runs an entry point until it exits. Once it has started, `whileRunning` checks it and it is
 * stopped with SIGTERM (its exit is awaited); without checks - a refusal was expected - one
 * that starts anyway is stopped at once.
 */
function runEntryPoint(
  entry: 'bin/server.ts' | 'bin/worker.ts',
  env: Record<string, string>,
  whileRunning: () => Promise<void> = async () => {},
): Promise<Run> {
  const child = spawnEntryPoint(entry, env);
  let stdout = '';
  let stderr = '';
  let failure: unknown;
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdout?.on('data', (chunk: Buffer) => {
    const startedBefore = STARTED.test(stdout);
    stdout += chunk.toString('utf8');
    if (startedBefore || !STARTED.test(stdout)) return;
    whileRunning()
      .catch((error: unknown) => (failure = error))
      .finally(() => child.kill('SIGTERM'));
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), START_TIMEOUT_MS);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (failure) reject(failure instanceof Error ? new Error(`${failure.message}\n${stdout}\n${stderr}`) : failure);
      else resolve({ code, stdout, stderr });
    });
  });
}

let database: TestDatabase<unknown>;
let superuserName: string;
let runtimeName: string;
/** A superuser with a password of its own: what a DATABASE_URL naming the owner gives the app. */
let superuserUrl: string;
/** A runtime login (a member of wallet_runtime) with a password of its own: what production runs as. */
let databaseUrl: string;
let dataDir: string;

/** A login role with its own password (the test cluster's postgres/postgres is refused for that alone). */
async function loginRole(prefix: string, options: string): Promise<{ name: string; url: string }> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const password = randomBytes(24).toString('hex');
  await adminQuery(`create role ${name} login ${options} password '${password}'`);
  const url = new URL(database.url);
  url.username = name;
  url.password = password;
  return { name, url: url.toString() };
}

beforeAll(async () => {
  database = await createTestDatabase<unknown>();
  const superuser = await loginRole('wallet_prod_owner', 'superuser');
  const runtime = await loginRole('wallet_prod_app', 'in role wallet_runtime');
  [superuserName, superuserUrl] = [superuser.name, superuser.url];
  [runtimeName, databaseUrl] = [runtime.name, runtime.url];
  dataDir = mkdtempSync(join(tmpdir(), 'wallet-production-'));
});

afterAll(async () => {
  await database.drop();
  await adminQuery(`drop role if exists ${superuserName}`);
  await adminQuery(`drop role if exists ${runtimeName}`);
  rmSync(dataDir, { recursive: true, force: true });
});

/** A production environment with every default replaced except the card provider (no Stripe key); nothing inherited from the test runner. */
function productionEnv(port: number): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    RUN_WORKERS: 'false',
    JWT_SECRET: randomBytes(48).toString('base64'),
    PIN_PEPPER: randomBytes(48).toString('base64'),
    ADMIN_EMAIL: 'admin@production.test',
    ADMIN_PASSWORD: randomBytes(18).toString('base64url'),
    // Not the local demo's collection account, which the server refuses.
    COLLECTION_ACCOUNT_NAME: 'Wallet Test Collections',
    COLLECTION_ACCOUNT_NUMBER: '00998877665544',
    COLLECTION_IFSC: 'TEST0000042',
    COLLECTION_UPI_ID: 'collections@testbank',
    LOG_LEVEL: 'warn',
  };
}

describe('production mode at startup', () => {
  it('regression: the server refuses a DATABASE_URL that is a superuser, naming the problem, before serving', async () => {
    const port = await freePort();
    const env = { ...productionEnv(port), CARD_PROVIDER: 'sandbox', DATABASE_URL: superuserUrl };
    const run = await runEntryPoint('bin/server.ts', env);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
    expect(run.stderr).toMatch(/^Refusing to start in production mode \(NODE_ENV=production\):\n {2}- DATABASE_URL: /);
    expect(run.stderr).toContain(`${superuserName} is a superuser`);
    expect(run.stderr).toContain('Connect as a member of wallet_runtime');
    expect(run.stderr).not.toMatch(/\n[ \t]+at /);
    expect(run.stdout).not.toContain('Wallet is running');
    // Refused before the first admin was made: nothing was written as the superuser.
    const admins = await sql<{ n: number }>`select count(*)::int as n from identity.users`.execute(database.db);
    expect(admins.rows[0]?.n).toBe(0);
  });

  it('regression: the worker refuses a DATABASE_URL that is a superuser, naming the problem', async () => {
    const env = { ...productionEnv(await freePort()), SMTP_URL: 'smtp://127.0.0.1:2525', DATABASE_URL: superuserUrl };
    const run = await runEntryPoint('bin/worker.ts', env);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
    expect(run.stderr).toMatch(/^Refusing to start in production mode \(NODE_ENV=production\):\n {2}- DATABASE_URL: /);
    expect(run.stderr).toContain(`${superuserName} is a superuser`);
    expect(run.stderr).not.toMatch(/\n[ \t]+at /);
    expect(run.stdout).not.toMatch(/workers running/i);
  });

  it('regression: the server refuses the sandbox card provider (it credited unpaid money), naming CARD_PROVIDER', async () => {
    const run = await runEntryPoint('bin/server.ts', productionEnv(await freePort()));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^Refusing to start in production mode \(NODE_ENV=production\):\n {2}- CARD_PROVIDER is not set and STRIPE_SECRET_KEY is empty/,
    );
    // The one problem of this environment, told plainly: no stack trace.
    expect(run.stderr.match(/^ {2}- /gm)).toHaveLength(1);
    expect(run.stderr).not.toMatch(/\n[ \t]+at /);
    expect(run.stdout).not.toContain('Wallet is running');
  });

  it("refuses the local demo's collection account (deposits would send customers' money to it), naming the variables", async () => {
    const env: Record<string, string> = { ...productionEnv(await freePort()), CARD_PROVIDER: 'sandbox' };
    delete env.COLLECTION_ACCOUNT_NUMBER;
    delete env.COLLECTION_IFSC;
    delete env.COLLECTION_UPI_ID;
    const run = await runEntryPoint('bin/server.ts', env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^Refusing to start in production mode \(NODE_ENV=production\):\n {2}- COLLECTION_ACCOUNT_NUMBER, COLLECTION_IFSC, and COLLECTION_UPI_ID are still the local demo's collection account/,
    );
    expect(run.stderr.match(/^ {2}- /gm)).toHaveLength(1);
    expect(run.stdout).not.toContain('Wallet is running');
  });

  it('refuses to create the first admin with a generated password, then starts with CARD_PROVIDER=sandbox and ADMIN_PASSWORD', async () => {
    const port = await freePort();
    const withoutAdminPassword: Record<string, string> = { ...productionEnv(port), CARD_PROVIDER: 'sandbox' };
    delete withoutAdminPassword.ADMIN_PASSWORD;
    const refused = await runEntryPoint('bin/server.ts', withoutAdminPassword);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/- ADMIN_PASSWORD is not set and no admin exists yet.*npm run admin:create/);
    expect(refused.stdout).not.toMatch(/generated password/i);

    const started = await runEntryPoint(
      'bin/server.ts',
      { ...productionEnv(port), CARD_PROVIDER: 'sandbox' },
      async () => {
        const health = await fetch(`http://127.0.0.1:${port}/api/health`);
        expect(health.status).toBe(200);
        const config = (await (await fetch(`http://127.0.0.1:${port}/api/config`)).json()) as {
          data: { cardProvider: string };
        };
        expect(config.data.cardProvider).toBe('sandbox');
      },
    );
    expect(started.stderr).not.toContain('Refusing');
    expect(started.stdout).toContain('First admin created: admin@production.test (password from ADMIN_PASSWORD)');
    expect(started.code, `${started.stdout}\n${started.stderr}`).toBe(0);
  });

  it('starts the worker with its secrets and SMTP_URL, serving GET /health on WORKER_HEALTH_PORT (the compose healthcheck)', async () => {
    const healthPort = await freePort();
    const env = {
      ...productionEnv(await freePort()),
      SMTP_URL: 'smtp://127.0.0.1:2525',
      WORKER_HEALTH_PORT: String(healthPort),
    };
    const run = await runEntryPoint('bin/worker.ts', env, async () => {
      expect((await fetch(`http://127.0.0.1:${healthPort}/health`)).status).toBe(200);
    });
    expect(run.stderr).not.toContain('Refusing');
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  });

  it('regression: the worker refuses to start without JWT_SECRET, PIN_PEPPER and SMTP_URL', async () => {
    const env = productionEnv(await freePort());
    delete env.JWT_SECRET;
    delete env.PIN_PEPPER;
    const run = await runEntryPoint('bin/worker.ts', env);
    expect(run.code).toBe(1);
    expect(run.stderr.match(/^ {2}- \w+/gm)).toEqual(['  - SMTP_URL', '  - JWT_SECRET', '  - PIN_PEPPER']);
    expect(run.stdout).not.toMatch(/workers running/i);
  });
});
