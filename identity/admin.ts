/**
 * Admin accounts: the first admin, created at first start from ADMIN_EMAIL/ADMIN_PASSWORD
 * (when none is configured a generated password is written to
 * `<DATA_DIR>/first-admin-password`, mode 0600, never to the log - in production mode only
 * with ALLOW_GENERATED_ADMIN_PASSWORD=true), and `npm run admin:create` for more. An admin
 * is a verified local account with its own wallet.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Ledger, LedgerTables } from '../ledger/index.ts';
import { transactionView, withAdvisoryLock } from '../platform/database.ts';
import type { Logger } from '../platform/logger.ts';
import { ProductionRefusal } from '../platform/production.ts';
import { hashPassword } from './secrets.ts';
import { identityDb } from './users.ts';

export interface AdminInput {
  email: string;
  /** Omitted: one is generated and returned (print it once, it is not stored in clear). */
  password?: string | undefined;
  firstName?: string;
  lastName?: string;
}

export type AdminOutcome =
  | { status: 'created'; userId: string; email: string; generatedPassword?: string }
  | { status: 'promoted'; userId: string; email: string }
  | { status: 'exists'; userId: string; email: string };

export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}

/**
 * Creates an admin, or makes the existing account with that e-mail an admin (verified).
 * The operator running it chose that e-mail on purpose; at first start see ensureFirstAdmin.
 */
export async function createAdmin(db: Kysely<unknown>, ledger: Ledger, input: AdminInput): Promise<AdminOutcome> {
  const email = input.email.trim().toLowerCase();
  const generatedPassword = input.password ? undefined : generatePassword();
  const passwordHash = await hashPassword(input.password ?? generatedPassword ?? '');
  return db.transaction().execute(async (trx): Promise<AdminOutcome> => {
    const existing = await identityDb(trx)
      .selectFrom('identity.users')
      .select(['id', 'is_admin'])
      .where('email', '=', email)
      .forUpdate()
      .executeTakeFirst();
    if (existing?.is_admin) return { status: 'exists', userId: existing.id, email };
    if (existing) {
      await identityDb(trx)
        .updateTable('identity.users')
        .set({ is_admin: true, is_verified: true, updated_at: new Date() })
        .where('id', '=', existing.id)
        .execute();
      return { status: 'promoted', userId: existing.id, email };
    }
    const userId = randomUUID();
    const firstName = input.firstName ?? 'Wallet';
    const lastName = input.lastName ?? 'Admin';
    await identityDb(trx)
      .insertInto('identity.users')
      .values({
        id: userId,
        email,
        first_name: firstName,
        last_name: lastName,
        contact_no: null,
        identification: null,
        identification_number: null,
        address: null,
        password_hash: passwordHash,
        pin_hash: null,
        is_admin: true,
        is_verified: true,
        auth_provider: 'local',
      })
      .execute();
    await ledger
      .within(transactionView<LedgerTables>(trx))
      .openWallet({ accountId: userId, displayName: `${firstName} ${lastName}` }, { actorId: 'system:admin-create' });
    return generatedPassword
      ? { status: 'created', userId, email, generatedPassword }
      : { status: 'created', userId, email };
  });
}

export interface FirstAdminConfig {
  ADMIN_EMAIL: string;
  ADMIN_PASSWORD?: string | undefined;
  PRODUCTION?: boolean | undefined;
  ALLOW_GENERATED_ADMIN_PASSWORD?: boolean | undefined;
  /** Where a generated password is kept for the operator (FIRST_ADMIN_PASSWORD_FILE). */
  DATA_DIR: string;
}

/** The file under DATA_DIR that holds a generated first-admin password (mode 0600). */
export const FIRST_ADMIN_PASSWORD_FILE = 'first-admin-password';

/**
 * At start: when no admin exists yet, create one from ADMIN_EMAIL / ADMIN_PASSWORD. An
 * advisory lock keeps two starting processes from both creating one. An existing non-admin
 * account with ADMIN_EMAIL is not promoted here (anyone could have registered that address);
 * use `npm run admin:create` for that. A generated password never goes into the log (JSON
 * lines shipped to wherever logs are kept, read by more people than the operator, for longer
 * than the password should live): it is written to a file only this user can read, before the
 * admin is created, and the log says where. In production mode even that is refused
 * (ProductionRefusal) unless explicitly allowed: a container's data directory is no place to
 * keep an admin's password.
 */
export async function ensureFirstAdmin(
  db: Kysely<unknown>,
  ledger: Ledger,
  config: FirstAdminConfig,
  log: Logger,
): Promise<FirstAdminOutcome> {
  // Held by a transaction of its own, not by the session: it must hold behind a transaction-mode pooler.
  const outcome = await withAdvisoryLock(db, 'identity.first-admin', { wait: true }, () =>
    createFirstAdminUnlessAny(db, ledger, config, log),
  );
  if (!outcome.locked) throw new Error('a waiting advisory lock is always taken');
  return outcome.value;
}

type FirstAdminOutcome = AdminOutcome | { status: 'skipped'; reason: string };

async function createFirstAdminUnlessAny(
  db: Kysely<unknown>,
  ledger: Ledger,
  config: FirstAdminConfig,
  log: Logger,
): Promise<FirstAdminOutcome> {
  const admin = await identityDb(db)
    .selectFrom('identity.users')
    .select(['id', 'email'])
    .where('is_admin', '=', true)
    .limit(1)
    .executeTakeFirst();
  if (admin) return { status: 'exists' as const, userId: admin.id, email: admin.email };
  const email = config.ADMIN_EMAIL.trim().toLowerCase();
  const taken = await identityDb(db)
    .selectFrom('identity.users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirst();
  if (taken) {
    const reason = `no admin exists and ${email} belongs to a non-admin account; run \`npm run admin:create -- --email <address>\``;
    log.warn({ component: 'identity' }, reason);
    return { status: 'skipped' as const, reason };
  }
  if (config.PRODUCTION && config.ADMIN_PASSWORD === undefined && !config.ALLOW_GENERATED_ADMIN_PASSWORD)
    throw new ProductionRefusal([generatedPasswordRefused(email, config.DATA_DIR)]);
  const generated = config.ADMIN_PASSWORD === undefined ? generatePassword() : undefined;
  // Kept before the admin exists: a failed write leaves no admin whose password nobody knows.
  const passwordFile = generated ? await keepGeneratedPassword(config.DATA_DIR, generated) : undefined;
  const outcome = await createAdmin(db, ledger, { email, password: config.ADMIN_PASSWORD ?? generated });
  if (outcome.status !== 'created') return outcome;
  log.info(
    { component: 'identity', email, ...(passwordFile ? { passwordFile } : {}) },
    passwordFile
      ? `First admin created: ${email}; its generated password is in ${passwordFile} (readable by this user only: read it, then delete the file; set ADMIN_PASSWORD to choose it)`
      : `First admin created: ${email} (password from ADMIN_PASSWORD)`,
  );
  return generated ? { ...outcome, generatedPassword: generated } : outcome;
}

async function keepGeneratedPassword(dataDir: string, password: string): Promise<string> {
  const file = join(dataDir, FIRST_ADMIN_PASSWORD_FILE);
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  // An older file keeps its mode through writeFile: make sure it is this user's only.
  await chmod(file, 0o600);
  return file;
}

function generatedPasswordRefused(email: string, dataDir: string): string {
  return (
    `ADMIN_PASSWORD is not set and no admin exists yet, so the first admin (${email}) would get a generated password kept in ${join(dataDir, FIRST_ADMIN_PASSWORD_FILE)}: ` +
    'set ADMIN_PASSWORD for the first start, or create the admin with `npm run admin:create -- --email <address>` ' +
    '(Docker: `docker compose run --rm api node bin/admin-create.ts --email <address>`), or ALLOW_GENERATED_ADMIN_PASSWORD=true'
  );
}
