/**
 * The one-shot operator processes behind `npm run migrate`, `npm run admin:create` and
 * `npm run ledger`: each opens what it needs, does one thing, says what it did and closes.
 * The entry points in bin/ parse their arguments and call these. `migrate` runs unattended
 * (a compose service), so what it says is a JSON log line on stdout; `admin:create` answers
 * the operator at a terminal in plain text on stdout (a generated password is its output and
 * must not land in a log), its diagnostics are JSON lines on stderr.
 */
import { runCli } from '../cli/main.ts';
import { processIo } from '../cli/io.ts';
import { createAdmin, type AdminOutcome } from '../identity/index.ts';
import type { Config } from '../platform/config.ts';
import { openDatabaseServer } from '../platform/database-server.ts';
import { createLogger, lifecycleLog } from '../platform/logger.ts';
import { migrateDatabase } from '../platform/migrate.ts';
import { allQueues } from './queues.ts';
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
    const report = await migrateDatabase(server.ownerUrl ?? server.url, allQueues, { runtimeUrl: server.url, log });
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

/** Creates an admin, or makes the account with that e-mail one; the password is ADMIN_PASSWORD or generated and shown once. */
export async function createAdminCommand(config: Config, input: AdminCommandInput): Promise<void> {
  const system = await startSystem(config, { role: 'cli' });
  try {
    const outcome = await createAdmin(system.db, system.ledger, {
      email: input.email ?? config.ADMIN_EMAIL,
      password: config.ADMIN_PASSWORD,
      ...(input.firstName ? { firstName: input.firstName } : {}),
      ...(input.lastName ? { lastName: input.lastName } : {}),
    });
    process.stdout.write(
      describeAdminOutcome(outcome)
        .map((line) => `${line}\n`)
        .join(''),
    );
  } finally {
    await system.stop();
  }
}

function describeAdminOutcome(outcome: AdminOutcome): string[] {
  switch (outcome.status) {
    case 'created':
      return [
        `Admin created: ${outcome.email} (account ${outcome.userId})`,
        ...(outcome.generatedPassword ? [`Generated password (shown once): ${outcome.generatedPassword}`] : []),
      ];
    case 'promoted':
      return [
        `Existing account ${outcome.email} (${outcome.userId}) is now a verified admin; its password is unchanged`,
      ];
    case 'exists':
      return [`${outcome.email} is already an admin; nothing changed`];
  }
}

/** The operator CLI (cli/main.ts) on the process's stdout and stderr; resolves to its exit code. */
export function ledgerCommand(argv: readonly string[], config: Config): Promise<number> {
  return runCli(argv, processIo(), { DATABASE_URL: config.DATABASE_URL, DATA_DIR: config.DATA_DIR });
}
