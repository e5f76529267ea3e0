/**
 * Who migrates and who connects: a migration run as the owner with another DATABASE_URL user
 * makes that login a member of wallet_runtime; a start without an owner connection refuses a
 * database with pending migrations (saying to run `npm run migrate`) instead of migrating it;
 * the embedded default migrates as its superuser and runs the app as `wallet_app`.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, inject, it } from 'vitest';
import { loadConfig } from './config.ts';
import { createDatabase } from './database.ts';
import { freePort } from './embedded-postgres.ts';
import { assertMigrationsCurrent, migrateDatabase, pendingMigrations } from './migrate.ts';
import { runtimePrivilegeProblems } from './runtime-privileges.ts';
import { scramVerifier } from './runtime-role.ts';
import { startSystem } from '../runtime/system.ts';
import { installation } from '../runtime/installation.ts';
import { adminQuery, createTestDatabase, inDatabase } from '../test/database.ts';
import { withLogin } from '../test/logins.ts';

async function currentUser(url: string): Promise<string> {
  const db = createDatabase<unknown>({ connectionString: url, maxConnections: 1 });
  try {
    const { rows } = await sql<{ user: string }>`select current_user as user`.execute(db);
    return rows[0]?.user ?? '';
  } finally {
    await db.destroy();
  }
}

describe('a migration run with DATABASE_OWNER_URL and another DATABASE_URL user', () => {
  it('creates that login with its password, a member of wallet_runtime with no problem privileges', async () => {
    const name = `t_mig_${randomBytes(4).toString('hex')}`;
    const login = {
      user: `wallet_test_login_${randomBytes(4).toString('hex')}`,
      password: randomBytes(18).toString('base64url'),
    };
    await adminQuery(`create database ${name}`);
    const ownerUrl = inDatabase(inject('adminDatabaseUrl'), name);
    const runtimeUrl = withLogin(ownerUrl, login);
    try {
      await expect(assertMigrationsCurrent(ownerUrl)).rejects.toThrow(/needs migrations .*run `npm run migrate`/);
      await migrateDatabase(ownerUrl, installation, { runtimeUrl });
      expect(await currentUser(runtimeUrl)).toBe(login.user);
      expect(await pendingMigrations(runtimeUrl)).toEqual([]);
      const runtime = createDatabase<unknown>({ connectionString: runtimeUrl, maxConnections: 1 });
      expect(await runtimePrivilegeProblems(runtime, installation.schemaPolicies)).toEqual([]);
      await runtime.destroy();
      // A second run finds the role and changes nothing it should not.
      await migrateDatabase(ownerUrl, installation, { runtimeUrl });
      expect(await currentUser(runtimeUrl)).toBe(login.user);
    } finally {
      await adminQuery(`drop database if exists ${name} with (force)`);
      await adminQuery(`drop role if exists ${login.user}`);
    }
  });
});

describe('a start without an owner connection', () => {
  it('refuses a database with pending migrations, saying to run npm run migrate', async () => {
    const name = `t_empty_${randomBytes(4).toString('hex')}`;
    await adminQuery(`create database ${name}`);
    try {
      const runtimeUrl = inDatabase(inject('runtimeDatabaseUrl'), name);
      const config = loadConfig({ DATABASE_URL: runtimeUrl, DATA_DIR: '/nonexistent' });
      await expect(startSystem(config, { role: 'api' })).rejects.toThrow(
        /The database needs migrations \(\d+ pending: 0001_baseline\b.*run `npm run migrate`/,
      );
    } finally {
      await adminQuery(`drop database if exists ${name} with (force)`);
    }
  });

  it('accepts a migrated database and does not migrate it', async () => {
    const testDb = await createTestDatabase<unknown>();
    try {
      await assertMigrationsCurrent(testDb.runtimeUrl);
    } finally {
      await testDb.drop();
    }
  });

  it('refuses DATABASE_OWNER_URL without DATABASE_URL', () => {
    expect(() => loadConfig({ DATABASE_OWNER_URL: 'postgres://owner@localhost/wallet' })).toThrow(
      /DATABASE_OWNER_URL: needs DATABASE_URL/,
    );
  });

  it('refuses LISTEN_DATABASE_URL without DATABASE_URL (the embedded server has no pooler to bypass)', () => {
    expect(() => loadConfig({ LISTEN_DATABASE_URL: 'postgres://app@localhost/wallet' })).toThrow(
      /LISTEN_DATABASE_URL: needs DATABASE_URL/,
    );
  });
});

describe('the embedded default', () => {
  it('migrates as its superuser and runs the app as wallet_app, whose password file is 0600', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wallet-embedded-roles-'));
    const config = loadConfig({ DATA_DIR: dataDir, EMBEDDED_POSTGRES_PORT: String(await freePort()) });
    const system = await startSystem(config, { role: 'cli' });
    try {
      expect(new URL(system.databaseUrl).username).toBe('wallet_app');
      const { rows } = await sql<{ user: string; member: boolean }>`
        select current_user as user, pg_has_role(current_user, 'wallet_runtime', 'MEMBER') as member`.execute(
        system.db,
      );
      expect(rows[0]).toEqual({ user: 'wallet_app', member: true });
      expect(await runtimePrivilegeProblems(system.db, installation.schemaPolicies)).toEqual([]);
      expect(statSync(join(dataDir, 'database-password')).mode & 0o777).toBe(0o600);
      await system.ledger.openWallet({ accountId: 'embedded-1', displayName: 'Embedded' }, { actorId: 'test' });
    } finally {
      await system.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('scramVerifier', () => {
  // RFC 7677, section 3: user "user", password "pencil"; the server's signature over that
  // exchange's AuthMessage, computed with our ServerKey, must be the RFC's.
  it('gives the ServerKey of the RFC 7677 example', () => {
    const verifier = scramVerifier('pencil', Buffer.from('W22ZaJ0SNY7soEsUEjb6gQ==', 'base64'), 4096);
    const serverKey = Buffer.from(verifier.split(':').at(-1) ?? '', 'base64');
    const nonce = 'rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0';
    const authMessage = `n=user,r=rOprNGfwEbeRWgbNEkqO,r=${nonce},s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096,c=biws,r=${nonce}`;
    expect(verifier).toMatch(/^SCRAM-SHA-256\$4096:W22ZaJ0SNY7soEsUEjb6gQ==\$[A-Za-z0-9+/=]{44}:[A-Za-z0-9+/=]{44}$/);
    expect(createHmac('sha256', serverKey).update(authMessage).digest('base64')).toBe(
      '6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=',
    );
  });
});
