/**
 * Admin accounts: the first admin, created at first start from ADMIN_EMAIL/ADMIN_PASSWORD
 * (a generated password is printed once when none is configured - in production mode only
 * with ALLOW_GENERATED_ADMIN_PASSWORD=true), and `npm run admin:create` for more. An admin
 * is a verified local account with its own wallet.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Ledger, LedgerTables } from '../ledger/index.ts';
import { transactionView } from '../platform/database.ts';
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
}

/**
 * At start: when no admin exists yet, create one from ADMIN_EMAIL / ADMIN_PASSWORD. An
 * advisory lock keeps two starting processes from both creating one. An existing non-admin
 * account with ADMIN_EMAIL is not promoted here (anyone could have registered that address);
 * use `npm run admin:create` for that. In production mode a generated password would end up
 * in the server's log, which outlives it and is read by more people than the operator: there
 * the process refuses to start instead (ProductionRefusal), unless explicitly allowed.
 */
export async function ensureFirstAdmin(
  db: Kysely<unknown>,
  ledger: Ledger,
  config: FirstAdminConfig,
  log: (line: string) => void = (line) => console.log(line),
): Promise<AdminOutcome | { status: 'skipped'; reason: string }> {
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(hashtext('identity.first-admin'))`.execute(connection);
    try {
      const admin = await identityDb(connection)
        .selectFrom('identity.users')
        .select(['id', 'email'])
        .where('is_admin', '=', true)
        .limit(1)
        .executeTakeFirst();
      if (admin) return { status: 'exists' as const, userId: admin.id, email: admin.email };
      const email = config.ADMIN_EMAIL.trim().toLowerCase();
      const taken = await identityDb(connection)
        .selectFrom('identity.users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirst();
      if (taken) {
        const reason = `no admin exists and ${email} belongs to a non-admin account; run \`npm run admin:create -- --email <address>\``;
        log(`[identity] ${reason}`);
        return { status: 'skipped' as const, reason };
      }
      if (config.PRODUCTION && config.ADMIN_PASSWORD === undefined && !config.ALLOW_GENERATED_ADMIN_PASSWORD)
        throw new ProductionRefusal([generatedPasswordRefused(email)]);
      const outcome = await createAdmin(connection, ledger, { email, password: config.ADMIN_PASSWORD });
      if (outcome.status === 'created') {
        log(
          outcome.generatedPassword
            ? `[identity] First admin created: ${email} with the generated password ${outcome.generatedPassword} (shown once; set ADMIN_PASSWORD to choose it)`
            : `[identity] First admin created: ${email} (password from ADMIN_PASSWORD)`,
        );
      }
      return outcome;
    } finally {
      await sql`select pg_advisory_unlock(hashtext('identity.first-admin'))`.execute(connection);
    }
  });
}

function generatedPasswordRefused(email: string): string {
  return (
    `ADMIN_PASSWORD is not set and no admin exists yet, so the first admin (${email}) would get a generated password printed to the log: ` +
    'set ADMIN_PASSWORD for the first start, or create the admin with `npm run admin:create -- --email <address>` ' +
    '(Docker: `docker compose run --rm api node bin/admin-create.ts --email <address>`), or ALLOW_GENERATED_ADMIN_PASSWORD=true'
  );
}
