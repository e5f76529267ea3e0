/**
 * `npm run admin:create` at its real entry point (`node bin/admin-create.ts`) against an app's
 * database. Regression: promoting an existing account kept the registrant's password, PIN and
 * sessions and ignored ADMIN_PASSWORD - and registration never proves who owns an address, so
 * whoever registered the address an operator later promoted became an admin with their own
 * password. Now promotion hands the account the operator's credential (ADMIN_PASSWORD, or a
 * generated one kept in a 0600 file, never printed) and leaves nothing of the registrant's.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityDb } from '../identity/users.ts';
import { registeredUser, startHarness, VALID_REGISTRATION, type Harness } from './app-harness.ts';
import { processEnvironment, ROOT } from './processes.ts';

const RUN_TIMEOUT_MS = 60_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let harness: Harness;
let dataDir: string;

beforeAll(async () => {
  harness = await startHarness();
  dataDir = mkdtempSync(join(tmpdir(), 'wallet-admin-create-'));
});

afterAll(async () => {
  await harness.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** `node bin/admin-create.ts --email <email>` on the harness's database; `password` is ADMIN_PASSWORD (unset when omitted). */
function adminCreate(email: string, settings: { password?: string; production?: boolean } = {}): Promise<Run> {
  const env = processEnvironment(
    {
      DATABASE_URL: harness.database.url,
      DATA_DIR: dataDir,
      ...(settings.password === undefined ? {} : { ADMIN_PASSWORD: settings.password }),
      ...(settings.production ? { NODE_ENV: 'production' } : {}),
    },
    settings.password === undefined ? ['ADMIN_PASSWORD', 'ALLOW_GENERATED_ADMIN_PASSWORD'] : [],
  );
  const child = spawn(process.execPath, ['bin/admin-create.ts', '--email', email], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

async function login(email: string, password: string) {
  return harness.call({ method: 'POST', url: '/api/users/login', payload: { email, password } });
}

async function userInfo(token: string) {
  return harness.call({
    method: 'POST',
    url: '/api/users/get-user-info',
    headers: { authorization: `Bearer ${token}` },
  });
}

async function credentialsOf(id: string) {
  return identityDb(harness.database.db)
    .selectFrom('identity.users')
    .select(['is_admin', 'is_verified', 'pin_hash', 'pin_verifier', 'pin_verifier_key'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

describe('admin:create promoting an account someone registered', () => {
  it("replaces the registrant's password with ADMIN_PASSWORD, clears the PIN and ends every session", async () => {
    // Whoever registered the address chose the password and the PIN, and holds a session.
    const registrant = await registeredUser(harness, 'ops-lead@example.in');
    expect((await userInfo(registrant.token ?? '')).statusCode).toBe(200);
    expect((await credentialsOf(registrant.id)).pin_hash).not.toBeNull();

    const run = await adminCreate('ops-lead@example.in', { password: 'operator-chosen-password-1' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('ops-lead@example.in');
    expect(`${run.stdout}${run.stderr}`).not.toContain('operator-chosen-password-1');

    // The registrant's password no longer signs in, and their token is refused.
    const old = await login('ops-lead@example.in', VALID_REGISTRATION.password);
    expect(old.statusCode).toBe(401);
    expect(old.json()).toMatchObject({ success: false, code: 'invalid_credentials' });
    expect((await userInfo(registrant.token ?? '')).statusCode).toBe(401);
    // No PIN is left (nor its peppered verifier).
    expect(await credentialsOf(registrant.id)).toEqual({
      is_admin: true,
      is_verified: true,
      pin_hash: null,
      pin_verifier: null,
      pin_verifier_key: null,
    });
    // The operator's password signs in, as an admin.
    const signedIn = await login('ops-lead@example.in', 'operator-chosen-password-1');
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const info = await userInfo(signedIn.json().data as string);
    expect(info.json().data).toMatchObject({ _id: registrant.id, isAdmin: true, pinSet: false });
  });

  it('without ADMIN_PASSWORD keeps a generated password in a 0600 file under DATA_DIR and prints only where', async () => {
    const registrant = await registeredUser(harness, 'finance@example.in');
    const run = await adminCreate('finance@example.in');
    expect(run.code, run.stderr).toBe(0);
    const file = join(dataDir, 'admin-password-finance@example.in');
    expect(run.stdout).toContain(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const password = readFileSync(file, 'utf8').trim();
    expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(`${run.stdout}${run.stderr}`).not.toContain(password);
    expect((await login('finance@example.in', VALID_REGISTRATION.password)).statusCode).toBe(401);
    expect((await userInfo(registrant.token ?? '')).statusCode).toBe(401);
    expect((await login('finance@example.in', password)).statusCode).toBe(200);
    expect((await credentialsOf(registrant.id)).pin_hash).toBeNull();
    // Run again for an admin: nothing changes, and the file keeps the password in use.
    const again = await adminCreate('finance@example.in');
    expect(again.stdout).toContain('finance@example.in is already an admin; nothing changed');
    expect(readFileSync(file, 'utf8').trim()).toBe(password);
    expect((await login('finance@example.in', password)).statusCode).toBe(200);
  });

  it('refuses a generated password in production mode, naming ADMIN_PASSWORD, and changes nothing', async () => {
    const registrant = await registeredUser(harness, 'prod-ops@example.in');
    const run = await adminCreate('prod-ops@example.in', { production: true });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/ADMIN_PASSWORD is not set.*ALLOW_GENERATED_ADMIN_PASSWORD=true/);
    expect((await credentialsOf(registrant.id)).is_admin).toBe(false);
    expect((await login('prod-ops@example.in', VALID_REGISTRATION.password)).statusCode).toBe(200);
  });
});
