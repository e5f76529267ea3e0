/**
 * Identity below HTTP: the server secret file, the first admin, admin:create's promotion,
 * the PIN guard's contract with money routes, the local outbox mailer and sealed mail jobs.
 */
import { mkdtemp, readFile, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, type LedgerTables } from '../ledger/index.ts';
import { renderEmailJob } from '../notifications/worker.ts';
import { createMailer } from '../notifications/mailer.ts';
import { seal } from '../notifications/seal.ts';
import { tablesView } from '../platform/database.ts';
import { capturedLog } from '../test/captured-log.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { createAdmin, ensureFirstAdmin, FIRST_ADMIN_PASSWORD_FILE } from './admin.ts';
import { resolveJwtSecret } from './jwt-secret.ts';
import { deriveKey } from './secrets.ts';
import { signInWithPassword } from './sign-in.ts';
import { pinKeysFrom } from './pin-verifier.ts';
import { verifyTransactionPin } from './transaction-pin.ts';
import { identityDb } from './users.ts';
import { findSecrets } from '../test/app-harness.ts';

let database: TestDatabase<unknown>;
beforeAll(async () => {
  database = await createTestDatabase<unknown>();
});
afterAll(async () => {
  await database.drop();
});
const ledger = () => createLedger({ db: tablesView<LedgerTables>(database.db) });

describe("the first admin's generated password file", () => {
  it('regression: is never written through a link or into a file others may write (whoever planted it would read the password)', async () => {
    const own = await createTestDatabase<unknown>();
    try {
      const dataDir = await mkdtemp(join(tmpdir(), 'wallet-admin-'));
      const planted = join(await mkdtemp(join(tmpdir(), 'wallet-planted-')), 'read-by-someone-else');
      await writeFile(planted, '');
      await symlink(planted, join(dataDir, FIRST_ADMIN_PASSWORD_FILE));
      const config = { ADMIN_EMAIL: 'boss@wallet.test', DATA_DIR: dataDir };
      const ownLedger = createLedger({ db: tablesView<LedgerTables>(own.db) });
      await expect(ensureFirstAdmin(own.db, ownLedger, config, capturedLog().log)).rejects.toThrow(
        `${join(dataDir, FIRST_ADMIN_PASSWORD_FILE)} is a symbolic link`,
      );
      expect(await readFile(planted, 'utf8')).toBe('');
      // No admin whose password nobody knows.
      const admins = await identityDb(own.db).selectFrom('identity.users').select('id').execute();
      expect(admins).toEqual([]);
    } finally {
      await own.drop();
    }
  });
});

describe("an admin's name", () => {
  it('regression: the first admin is named by ADMIN_NAME, another by its e-mail, never the placeholder "Wallet Admin"', async () => {
    const own = await createTestDatabase<unknown>();
    try {
      const ownLedger = createLedger({ db: tablesView<LedgerTables>(own.db) });
      const config = {
        ADMIN_EMAIL: 'ops@wallet.test',
        ADMIN_PASSWORD: 'first-admin-pw',
        ADMIN_NAME: '  Priya   Devi Sharma ',
        DATA_DIR: await mkdtemp(join(tmpdir(), 'wallet-admin-')),
      };
      expect((await ensureFirstAdmin(own.db, ownLedger, config, capturedLog().log)).status).toBe('created');
      await createAdmin(own.db, ownLedger, { email: 'ravi.kumar2@wallet.test', password: 'second-admin-pw' });
      await createAdmin(own.db, ownLedger, {
        email: 'team@wallet.test',
        password: 'third-admin-pw',
        firstName: 'Asha',
      });
      const names = await identityDb(own.db)
        .selectFrom('identity.users')
        .select(['email', 'first_name', 'last_name'])
        .orderBy('email')
        .execute();
      expect(names).toEqual([
        { email: 'ops@wallet.test', first_name: 'Priya', last_name: 'Devi Sharma' },
        { email: 'ravi.kumar2@wallet.test', first_name: 'Ravi', last_name: 'Kumar' },
        { email: 'team@wallet.test', first_name: 'Asha', last_name: '' },
      ]);
    } finally {
      await own.drop();
    }
  });
});

describe('server secret', () => {
  it('uses JWT_SECRET when set', async () => {
    expect(await resolveJwtSecret({ JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/nonexistent' })).toBe('x'.repeat(40));
  });

  it('otherwise generates one at first start into <DATA_DIR>/jwt-secret (0600) and keeps it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wallet-secret-'));
    const first = await resolveJwtSecret({ DATA_DIR: dir });
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect((await stat(join(dir, 'jwt-secret'))).mode & 0o777).toBe(0o600);
    expect(await resolveJwtSecret({ DATA_DIR: dir })).toBe(first);
  });
});

describe('first admin', () => {
  it('is created once; a generated password goes to <DATA_DIR>/first-admin-password (0600), the log only says where', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'wallet-admin-'));
    const captured = capturedLog();
    const first = await ensureFirstAdmin(
      database.db,
      ledger(),
      { ADMIN_EMAIL: 'Boss@Wallet.test', DATA_DIR: dataDir },
      captured.log,
    );
    expect(first.status).toBe('created');
    const password = first.status === 'created' ? first.generatedPassword : undefined;
    expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    const file = join(dataDir, FIRST_ADMIN_PASSWORD_FILE);
    expect(await readFile(file, 'utf8')).toBe(`${password}\n`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(captured.lines()).toEqual([
      expect.objectContaining({ level: 30, email: 'boss@wallet.test', passwordFile: file }),
    ]);
    expect(captured.text()).not.toContain(password);
    const admin = await signInWithPassword(database.db, 'boss@wallet.test', password ?? '');
    expect(admin).toMatchObject({ isAdmin: true, isVerified: true, pinSet: false });

    const again = await ensureFirstAdmin(
      database.db,
      ledger(),
      { ADMIN_EMAIL: 'other@wallet.test', ADMIN_PASSWORD: 'whatever-123', DATA_DIR: dataDir },
      captured.log,
    );
    expect(again.status).toBe('exists');
    expect(captured.lines()).toHaveLength(1);
    const wallet = await tablesView<LedgerTables>(database.db)
      .selectFrom('ledger.accounts')
      .select('kind')
      .where('id', '=', admin.id)
      .executeTakeFirst();
    expect(wallet?.kind).toBe('wallet');
  });

  it('admin:create adds admins and promotes an existing account', async () => {
    const created = await createAdmin(database.db, ledger(), {
      email: 'second@wallet.test',
      password: 'second-admin-pw',
    });
    expect(created.status).toBe('created');
    await identityDb(database.db)
      .insertInto('identity.users')
      .values({
        id: 'plain-user',
        email: 'plain@wallet.test',
        first_name: 'P',
        last_name: 'U',
        contact_no: null,
        identification: null,
        identification_number: null,
        address: null,
        password_hash: 'x',
        pin_hash: null,
        auth_provider: 'local',
      })
      .execute();
    const promoted = await createAdmin(database.db, ledger(), { email: 'PLAIN@wallet.test' });
    expect(promoted).toMatchObject({ status: 'promoted', wasVerified: false });
    // The registrant's password is replaced (here by a generated one, returned once).
    const row = await identityDb(database.db)
      .selectFrom('identity.users')
      .select(['is_admin', 'is_verified', 'password_hash', 'session_version'])
      .where('id', '=', 'plain-user')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ is_admin: true, is_verified: true, session_version: 2 });
    expect(row.password_hash).not.toBe('x');
    const password = promoted.status === 'promoted' ? promoted.generatedPassword : undefined;
    expect(await signInWithPassword(database.db, 'plain@wallet.test', password ?? '')).toMatchObject({
      isAdmin: true,
    });
  });
});

describe('transaction PIN guard', () => {
  it('refuses a transaction handle: a wrong try must be committed even when the money command rolls back', async () => {
    await expect(
      database.db
        .transaction()
        .execute((trx) => verifyTransactionPin({ db: trx, keys: pinKeysFrom('p'.repeat(40)) }, 'plain-user', '1234')),
    ).rejects.toThrow(/needs the pool/);
  });

  it('answers PIN_NOT_SET for an account without a PIN', async () => {
    await expect(
      verifyTransactionPin({ db: database.db, keys: pinKeysFrom('p'.repeat(40)) }, 'plain-user', '1234'),
    ).rejects.toMatchObject({ code: 'PIN_NOT_SET', message: 'Please set your transaction PIN first in settings.' });
  });
});

describe('mail', () => {
  it('without SMTP_URL keeps each mail as an .eml file in the outbox and prints it', async () => {
    const outboxDir = join(await mkdtemp(join(tmpdir(), 'wallet-outbox-')), 'outbox');
    const captured = capturedLog();
    const mailer = createMailer({ from: 'Wallet <no-reply@wallet.local>', outboxDir, log: captured.log });
    await mailer.send({ to: 'dev@example.com', subject: 'Hello', text: 'Body text' });
    const files = await readdir(outboxDir);
    expect(files).toHaveLength(1);
    const eml = await readFile(join(outboxDir, files[0] ?? ''), 'utf8');
    expect(eml).toContain('To: dev@example.com');
    expect(eml).toContain('Body text');
    expect(captured.lines()).toEqual([expect.objectContaining({ component: 'mail', text: 'Body text' })]);
  });

  it('job payloads carry the code sealed; the worker opens it with the same key only', () => {
    const key = deriveKey('a-server-secret-of-enough-length-000', 'mail-seal');
    const job = {
      kind: 'one_time_code',
      to: 'a@b.co',
      purpose: 'pin',
      sealedCode: seal(key, '123456'),
      validMinutes: 10,
    };
    expect(JSON.stringify(job)).not.toContain('123456');
    expect(renderEmailJob(job, { sealKey: key, publicUrl: 'http://x' }).text).toContain('123456');
    expect(() =>
      renderEmailJob(job, {
        sealKey: deriveKey('another-secret-of-enough-length-0000', 'mail-seal'),
        publicUrl: 'http://x',
      }),
    ).toThrow();
  });
});

describe('the secret scan used by the HTTP tests', () => {
  it('flags secret-looking keys at any depth, hash-looking values and known codes, but not the envelope code', () => {
    expect(
      findSecrets(
        [{ success: false, message: 'x', code: 'OAUTH_USER' }, { data: { pinSet: true, expiresIn: '15 minutes' } }],
        [],
      ),
    ).toEqual([]);
    expect(findSecrets([{ data: [{ _id: 'a', pin_hash: 'x' }] }], [])).toEqual(['reply[0].data[0].pin_hash']);
    expect(
      findSecrets([{ data: { password: '' } }, { data: { transactionPin: '' } }, { data: { otp: '1' } }], []),
    ).toHaveLength(3);
    expect(findSecrets([{ data: { code: '123456' } }], [])).toEqual(['reply[0].data.code']);
    expect(
      findSecrets([{ data: { note: '$2b$12$abcdefghijklmnopqrstuv' } }, { data: { note: '$argon2id$v=19$...' } }], []),
    ).toHaveLength(2);
    expect(findSecrets([{ message: '654321' }], ['654321'])).toEqual(['reply[0].message = 654321']);
  });
});
