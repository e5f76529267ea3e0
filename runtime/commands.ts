/**
 * The one-shot operator processes behind `npm run migrate`, `npm run admin:create` and
 * `npm run ledger`: each opens what it needs, does one thing, says what it did and closes.
 * The entry points in bin/ parse their arguments and call these. `migrate` runs unattended
 * (a compose service), so what it says is a JSON log line on stdout; `admin:create` answers
 * the operator at a terminal in plain text on stdout, its diagnostics are JSON lines on stderr.
 * A password admin:create generates is in neither: it goes into a 0600 file under DATA_DIR
 * and the answer says where (a container's output is collected like a log).
 */
import { runCli } from '../cli/main.ts';
import { processIo } from '../cli/io.ts';
import {
  adminPasswordFileName,
  createAdmin,
  generatedAdminPasswordRefused,
  type AdminOutcome,
} from '../identity/index.ts';
import type { Config } from '../platform/config.ts';
import { openDatabaseServer } from '../platform/database-server.ts';
import { createLogger, lifecycleLog } from '../platform/logger.ts';
import { migrateDatabase } from '../platform/migrate.ts';
import { ProductionRefusal } from '../platform/production.ts';
import { writeSecretFile } from '../platform/secret-file.ts';
import { installation } from './installation.ts';
import { startSystem } from './system.ts';

/**
 * Applies pending migrations, creates the job queues and (re)applies the runtime role's
 * grants, as the owner: DATABASE_OWNER_URL, else DATABASE_URL (a single-role setup), else the
 * embedded superuser. A separate app login (DATABASE_URL beside DATABASE_OWNER_URL, or the
 * embedded `wallet_app`) is made a member of wallet_runtime.
 */
export async function migrateCommand(config: Config): Promise<void> {
  const log = createLogger('migrate', { level: config.LOG_LEVEL });
  const server = await openDatabaseServer({
    databaseUrl: config.DATABASE_URL,
    databaseOwnerUrl: config.DATABASE_OWNER_URL,
    dataDir: config.DATA_DIR,
    embeddedPort: config.EMBEDDED_POSTGRES_PORT,
    log,
  });
  try {
    const report = await migrateDatabase(server.ownerUrl ?? server.url, installation, { runtimeUrl: server.url, log });
    lifecycleLog(log).info(
      { applied: report.applied },
      report.applied.length ? `Applied: ${report.applied.join(', ')}` : 'Database is up to date.',
    );
  } finally {
    await server.stop();
  }
}

export interface AdminCommandInput {
  /** Defaults to ADMIN_EMAIL. */
  email?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
}

/**
 * Creates an admin, or makes the account with that e-mail one, with the password ADMIN_PASSWORD
 * or a generated one kept in `<DATA_DIR>/admin-password-<email>` (0600; refused in production
 * mode unless ALLOW_GENERATED_ADMIN_PASSWORD=true, as for the first admin: a container's data
 * directory is no place for it). A promoted account keeps none of its earlier credentials
 * (identity/admin.ts). The password is never printed.
 */
export async function createAdminCommand(config: Config, input: AdminCommandInput): Promise<void> {
  const email = (input.email ?? config.ADMIN_EMAIL).trim().toLowerCase();
  if (config.PRODUCTION && config.ADMIN_PASSWORD === undefined && !config.ALLOW_GENERATED_ADMIN_PASSWORD)
    throw new ProductionRefusal([generatedAdminPasswordRefused(email, config.DATA_DIR)]);
  const system = await startSystem(config, { role: 'cli' });
  try {
    let passwordFile: string | undefined;
    const outcome = await createAdmin(system.db, system.ledger, {
      email,
      password: config.ADMIN_PASSWORD,
      keepGeneratedPassword: async (password) => {
        passwordFile = await writeSecretFile(config.DATA_DIR, adminPasswordFileName(email), password);
      },
      ...(input.firstName ? { firstName: input.firstName } : {}),
      ...(input.lastName ? { lastName: input.lastName } : {}),
    });
    process.stdout.write(
      describeAdminOutcome(outcome, passwordFile)
        .map((line) => `${line}\n`)
        .join(''),
    );
  } finally {
    await system.stop();
  }
}

function describeAdminOutcome(outcome: AdminOutcome, passwordFile: string | undefined): string[] {
  const password = passwordFile
    ? `Its password was generated into ${passwordFile} (readable by this user only: read it, then delete the file; set ADMIN_PASSWORD to choose it)`
    : 'Its password is ADMIN_PASSWORD';
  switch (outcome.status) {
    case 'created':
      return [`Admin created: ${outcome.email} (account ${outcome.userId})`, password];
    case 'promoted':
      return [
        `Existing account ${outcome.email} (${outcome.userId}) is now a verified admin${outcome.wasVerified ? '' : ' (it was not verified: awaiting verification or suspended)'}`,
        `${password}; its earlier password, PIN, sessions and Google link no longer work (set a PIN through the PIN-reset e-mail)`,
      ];
    case 'exists':
      return [`${outcome.email} is already an admin; nothing changed`];
  }
}

/** The operator CLI (cli/main.ts) on the process's stdout and stderr; resolves to its exit code. */
export function ledgerCommand(argv: readonly string[], config: Config): Promise<number> {
  return runCli(argv, processIo(), { DATABASE_URL: config.DATABASE_URL, DATA_DIR: config.DATA_DIR });
}
