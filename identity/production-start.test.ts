/**
 * Identity's part of production mode: the PIN pepper (its own secret, generated locally,
 * required in production), the server secret never generated in production, and the first
 * admin never given a password printed to the log unless explicitly allowed.
 */
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, type LedgerTables } from '../ledger/index.ts';
import { tablesView } from '../platform/database.ts';
import { ProductionRefusal } from '../platform/production.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { ensureFirstAdmin } from './admin.ts';
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
  it('refuses to start without ADMIN_PASSWORD instead of printing a generated one, naming ADMIN_PASSWORD and admin:create', async () => {
    const lines: string[] = [];
    const attempt = ensureFirstAdmin(
      database.db,
      ledger(),
      { ADMIN_EMAIL: 'boss@wallet.test', PRODUCTION: true },
      (line) => lines.push(line),
    );
    await expect(attempt).rejects.toBeInstanceOf(ProductionRefusal);
    await expect(
      ensureFirstAdmin(database.db, ledger(), { ADMIN_EMAIL: 'boss@wallet.test', PRODUCTION: true }, () => {}),
    ).rejects.toThrow(
      /ADMIN_PASSWORD is not set and no admin exists yet.*npm run admin:create.*ALLOW_GENERATED_ADMIN_PASSWORD=true/,
    );
    expect(lines).toEqual([]);
    expect(await countAdmins()).toBe(0);
  });

  it('prints a generated password only with ALLOW_GENERATED_ADMIN_PASSWORD=true', async () => {
    const lines: string[] = [];
    const outcome = await ensureFirstAdmin(
      database.db,
      ledger(),
      { ADMIN_EMAIL: 'boss@wallet.test', PRODUCTION: true, ALLOW_GENERATED_ADMIN_PASSWORD: true },
      (line) => lines.push(line),
    );
    expect(outcome.status).toBe('created');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(outcome.status === 'created' ? outcome.generatedPassword : 'no password');
  });

  it('starts without ADMIN_PASSWORD once an admin exists: nothing is generated, nothing printed', async () => {
    const lines: string[] = [];
    const outcome = await ensureFirstAdmin(
      database.db,
      ledger(),
      { ADMIN_EMAIL: 'boss@wallet.test', PRODUCTION: true },
      (line) => lines.push(line),
    );
    expect(outcome.status).toBe('exists');
    expect(lines).toEqual([]);
  });
});
