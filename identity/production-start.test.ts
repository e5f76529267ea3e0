/**
 * Identity's part of production mode: the PIN pepper (its own secret, generated locally,
 * required in production), the server secret never generated in production, and the first
 * admin never given a generated password (kept in a file, never logged) unless explicitly allowed.
 */
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, type LedgerTables } from '../ledger/index.ts';
import { tablesView } from '../platform/database.ts';
import { ProductionRefusal } from '../platform/production.ts';
import { capturedLog } from '../test/captured-log.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { ensureFirstAdmin, FIRST_ADMIN_PASSWORD_FILE } from './admin.ts';
import { resolveJwtSecret } from './jwt-secret.ts';
import { resolvePinPepper } from './pin-pepper.ts';
import { identityDb } from './users.ts';

let database: TestDatabase<unknown>;
beforeAll(async () => {
  database = await createTestDatabase<unknown>();
});
afterAll(async () => {
  await database.drop();
});
const ledger = () => createLedger({ db: tablesView<LedgerTables>(database.db) });
const countAdmins = async () =>
  (await identityDb(database.db).selectFrom('identity.users').select('id').where('is_admin', '=', true).execute())
    .length;

describe('PIN pepper', () => {
  it('uses PIN_PEPPER when set', async () => {
    expect(await resolvePinPepper({ PIN_PEPPER: 'p'.repeat(40), DATA_DIR: '/nonexistent' })).toBe('p'.repeat(40));
    expect(await resolvePinPepper({ PIN_PEPPER: 'p'.repeat(40), DATA_DIR: '/nonexistent', PRODUCTION: true })).toBe(
      'p'.repeat(40),
    );
  });

  it('outside production is generated once into <DATA_DIR>/pin-pepper (0600), apart from the JWT secret', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wallet-pepper-'));
    const pepper = await resolvePinPepper({ DATA_DIR: dir });
    expect(pepper.length).toBeGreaterThanOrEqual(32);
    expect((await stat(join(dir, 'pin-pepper'))).mode & 0o777).toBe(0o600);
    expect(await resolvePinPepper({ DATA_DIR: dir })).toBe(pepper);
    expect(await resolveJwtSecret({ DATA_DIR: dir })).not.toBe(pepper);
    expect((await readFile(join(dir, 'jwt-secret'), 'utf8')).trim()).not.toBe(pepper);
  });

  it('in production is never generated: each container would get its own', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wallet-pepper-'));
    await expect(resolvePinPepper({ DATA_DIR: dir, PRODUCTION: true })).rejects.toThrow(/PIN_PEPPER is not set/);
    await expect(resolveJwtSecret({ DATA_DIR: dir, PRODUCTION: true })).rejects.toThrow(/JWT_SECRET is not set/);
    await expect(stat(join(dir, 'pin-pepper'))).rejects.toThrow(/ENOENT/);
    await expect(stat(join(dir, 'jwt-secret'))).rejects.toThrow(/ENOENT/);
  });
});

describe('first admin in production mode', () => {
  it('refuses to start without ADMIN_PASSWORD instead of generating one, naming ADMIN_PASSWORD and admin:create', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'wallet-admin-'));
    const captured = capturedLog();
    const config = { ADMIN_EMAIL: 'boss@wallet.test', PRODUCTION: true, DATA_DIR: dataDir };
    const attempt = ensureFirstAdmin(database.db, ledger(), config, captured.log);
    await expect(attempt).rejects.toBeInstanceOf(ProductionRefusal);
    await expect(ensureFirstAdmin(database.db, ledger(), config, captured.log)).rejects.toThrow(
      /ADMIN_PASSWORD is not set and no admin exists yet.*npm run admin:create.*ALLOW_GENERATED_ADMIN_PASSWORD=true/,
    );
    expect(captured.lines()).toEqual([]);
    await expect(stat(join(dataDir, FIRST_ADMIN_PASSWORD_FILE))).rejects.toThrow(/ENOENT/);
    expect(await countAdmins()).toBe(0);
  });

  it('generates a password only with ALLOW_GENERATED_ADMIN_PASSWORD=true, into the file, never into the log', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'wallet-admin-'));
    const captured = capturedLog();
    const outcome = await ensureFirstAdmin(
      database.db,
      ledger(),
      { ADMIN_EMAIL: 'boss@wallet.test', PRODUCTION: true, ALLOW_GENERATED_ADMIN_PASSWORD: true, DATA_DIR: dataDir },
      captured.log,
    );
    const password = outcome.status === 'created' ? outcome.generatedPassword : undefined;
    expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(await readFile(join(dataDir, FIRST_ADMIN_PASSWORD_FILE), 'utf8')).toBe(`${password}\n`);
    expect(captured.lines()).toHaveLength(1);
    expect(captured.text()).not.toContain(password);
  });

  it('starts without ADMIN_PASSWORD once an admin exists: nothing is generated, nothing logged', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'wallet-admin-'));
    const captured = capturedLog();
    const outcome = await ensureFirstAdmin(
      database.db,
      ledger(),
      { ADMIN_EMAIL: 'boss@wallet.test', PRODUCTION: true, DATA_DIR: dataDir },
      captured.log,
    );
    expect(outcome.status).toBe('exists');
    expect(captured.lines()).toEqual([]);
    await expect(stat(join(dataDir, FIRST_ADMIN_PASSWORD_FILE))).rejects.toThrow(/ENOENT/);
  });
});
