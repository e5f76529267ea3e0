/**
 * Admin accounts: the first admin, created at first start from ADMIN_EMAIL/ADMIN_PASSWORD
 * (when none is configured a generated password is written to
 * `<DATA_DIR>/first-admin-password`, mode 0600, never to the log - in production mode only
 * with ALLOW_GENERATED_ADMIN_PASSWORD=true), and `npm run admin:create` for more. An admin
 * is a verified local account with its own wallet, named by ADMIN_NAME (the first admin),
 * --first-name/--last-name (admin:create) or else its e-mail's name part.
 *
 * Promoting an existing account hands it the operator's credential and keeps none of the
 * registrant's: registration never proves who owns an address, so whoever registered the
 * address an operator later promotes must not become an admin with their own password, PIN,
 * open sessions or Google link. The password is set (ADMIN_PASSWORD, or generated and kept
 * like the first admin's, in `<DATA_DIR>/admin-password-<email>`), the PIN and its verifier
 * are cleared (set again through the PIN-reset e-mail), the session version is bumped (every
 * token issued so far is refused) and the account becomes a local one.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Ledger, LedgerTables } from '../ledger/index.ts';
import { transactionView, withAdvisoryLock } from '../platform/database.ts';
import type { Logger } from '../platform/logger.ts';
import { ProductionRefusal } from '../platform/production.ts';
import { writeSecretFile } from '../platform/secret-file.ts';
import { hashPassword } from './secrets.ts';
import { identityDb, NO_TRANSACTION_PIN } from './users.ts';

export interface AdminInput {
  email: string;
  /** Omitted: one is generated and returned (it is not stored in clear). */
  password?: string | undefined;
  /**
   * Keeps a generated password for the operator (a 0600 file), inside the transaction once
   * the account will change: a failed write changes nothing, and an account that is already
   * an admin gets no file.
   */
  keepGeneratedPassword?: (password: string) => Promise<void>;
  firstName?: string;
  lastName?: string;
}

export type AdminOutcome =
  | { status: 'created'; userId: string; email: string; generatedPassword?: string }
  | {
      status: 'promoted';
      userId: string;
      email: string;
      generatedPassword?: string;
      /** Whether an admin had verified (activated) the account before; it is verified now. */
      wasVerified: boolean;
    }
  | { status: 'exists'; userId: string; email: string };

/** The most characters of a name from ADMIN_NAME or an e-mail (a registrant's names have the same bound). */
const MAX_NAME_LENGTH = 100;

/**
 * An admin's names when the operator gave none: the e-mail's name part in words
 * ("priya.sharma@bank.in" -> Priya / Sharma), so the app greets them by a name of their own
 * rather than the placeholder "Wallet Admin" it used to give every admin.
 */
export function namesFromEmail(email: string): { firstName: string; lastName: string } {
  const words = (email.split('@')[0] ?? '')
    .split(/[._+\-\d]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase());
  return splitName(words.join(' ') || 'Admin');
}

/** "Priya Sharma" -> Priya / Sharma (the first word, then the rest), as ADMIN_NAME is read. */
export function splitName(name: string): { firstName: string; lastName: string } {
  const [firstName = '', ...rest] = name.trim().slice(0, MAX_NAME_LENGTH).split(/\s+/);
  return { firstName, lastName: rest.join(' ') };
}

export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}

/**
 * Creates an admin, or makes the existing account with that e-mail an admin (verified), with
 * the given password (or a generated one, returned): a promoted account's earlier password,
 * PIN, sessions and Google link end. The operator running it chose that e-mail on purpose, so
 * an account that is not verified (or was suspended) is promoted too: nothing of whoever
 * registered it is left to act with, and refusing it would leave an operator whose admin
 * address someone registered first (ensureFirstAdmin skips it) with no admin at all. At first
 * start see ensureFirstAdmin.
 */
export async function createAdmin(db: Kysely<unknown>, ledger: Ledger, input: AdminInput): Promise<AdminOutcome> {
  const email = input.email.trim().toLowerCase();
  const generatedPassword = input.password ? undefined : generatePassword();
  const passwordHash = await hashPassword(input.password ?? generatedPassword ?? '');
  return db.transaction().execute(async (trx): Promise<AdminOutcome> => {
    const existing = await identityDb(trx)
      .selectFrom('identity.users')
      .select(['id', 'is_admin', 'is_verified'])
      .where('email', '=', email)
      .forUpdate()
      .executeTakeFirst();
    if (existing?.is_admin) return { status: 'exists', userId: existing.id, email };
    if (generatedPassword && input.keepGeneratedPassword) await input.keepGeneratedPassword(generatedPassword);
    if (existing) {
      await identityDb(trx)
        .updateTable('identity.users')
        .set((eb) => ({
          is_admin: true,
          is_verified: true,
          password_hash: passwordHash,
          auth_provider: 'local',
          google_subject: null,
          ...NO_TRANSACTION_PIN,
          session_version: eb('session_version', '+', 1),
          updated_at: new Date(),
        }))
        .where('id', '=', existing.id)
        .execute();
      const promoted = { status: 'promoted' as const, userId: existing.id, email, wasVerified: existing.is_verified };
      return generatedPassword ? { ...promoted, generatedPassword } : promoted;
    }
    const userId = randomUUID();
    const derived = namesFromEmail(email);
    const firstName = input.firstName ?? derived.firstName;
    const lastName = input.lastName ?? (input.firstName === undefined ? derived.lastName : '');
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
      .openWallet(
        { accountId: userId, displayName: `${firstName} ${lastName}`.trim() },
        { actorId: 'system:admin-create' },
      );
    return generatedPassword
      ? { status: 'created', userId, email, generatedPassword }
      : { status: 'created', userId, email };
  });
}

export interface FirstAdminConfig {
  ADMIN_EMAIL: string;
  ADMIN_PASSWORD?: string | undefined;
  /** The first admin's name ("Priya Sharma"); without it, the name part of ADMIN_EMAIL. */
  ADMIN_NAME?: string | undefined;
  PRODUCTION?: boolean | undefined;
  ALLOW_GENERATED_ADMIN_PASSWORD?: boolean | undefined;
  /** Where a generated password is kept for the operator (FIRST_ADMIN_PASSWORD_FILE). */
  DATA_DIR: string;
}

/** The file under DATA_DIR that holds a generated first-admin password (mode 0600). */
export const FIRST_ADMIN_PASSWORD_FILE = 'first-admin-password';

/** The file under DATA_DIR where `npm run admin:create` keeps a password it generated for `email` (mode 0600). */
export function adminPasswordFileName(email: string): string {
  return `admin-password-${email
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9@._+-]/g, '_')}`;
}

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
  const outcome = await createAdmin(db, ledger, {
    email,
    password: config.ADMIN_PASSWORD ?? generated,
    ...(config.ADMIN_NAME ? splitName(config.ADMIN_NAME) : {}),
  });
  if (outcome.status !== 'created') return outcome;
  log.info(
    { component: 'identity', email, ...(passwordFile ? { passwordFile } : {}) },
    passwordFile
      ? `First admin created: ${email}; its generated password is in ${passwordFile} (readable by this user only: read it, then delete the file; set ADMIN_PASSWORD to choose it)`
      : `First admin created: ${email} (password from ADMIN_PASSWORD)`,
  );
  return generated ? { ...outcome, generatedPassword: generated } : outcome;
}

/** Never through a link another user planted, nor into a file others may write (writeSecretFile). */
function keepGeneratedPassword(dataDir: string, password: string): Promise<string> {
  return writeSecretFile(dataDir, FIRST_ADMIN_PASSWORD_FILE, password);
}

function generatedPasswordRefused(email: string, dataDir: string): string {
  return (
    `ADMIN_PASSWORD is not set and no admin exists yet, so the first admin (${email}) would get a generated password kept in ${join(dataDir, FIRST_ADMIN_PASSWORD_FILE)}: ` +
    'set ADMIN_PASSWORD for the first start, or create the admin with `npm run admin:create -- --email <address>` with ADMIN_PASSWORD set ' +
    '(Docker: export ADMIN_PASSWORD in your shell, then `docker compose run --rm api node bin/admin-create.ts --email <address>`), or ALLOW_GENERATED_ADMIN_PASSWORD=true'
  );
}

/**
 * admin:create's refusal in production mode without ADMIN_PASSWORD: a generated password
 * would be kept in the container's DATA_DIR (gone with `docker compose run --rm`), and
 * printing it instead would put it wherever the container's output is collected.
 */
export function generatedAdminPasswordRefused(email: string, dataDir: string): string {
  return (
    `ADMIN_PASSWORD is not set, so ${email} would get a generated password kept in ${join(dataDir, adminPasswordFileName(email))} inside this container: ` +
    'set ADMIN_PASSWORD for this command (Docker: export it in your shell, then `docker compose run --rm api node bin/admin-create.ts --email <address>`), ' +
    'or ALLOW_GENERATED_ADMIN_PASSWORD=true'
  );
}
