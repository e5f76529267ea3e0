/**
 * Schema migrations, run as the owner: the runtime role (platform/runtime-role.ts), the
 * forward-only Kysely migrations from migrations/ (one transaction for the run), pg-boss's
 * own schema and the project's queues, then the runtime's grants by schema policy and, when
 * the app connects as another user, that login as a member of the runtime role.
 * Also the check a runtime start makes instead (it may not migrate): are migrations current?
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kysely, PostgresDialect } from 'kysely';
import { FileMigrationProvider, Migrator } from 'kysely/migration';
import { createPool } from './database.ts';
import { installJobQueues, type QueueSpec } from './jobs.ts';
import type { Logger } from './logger.ts';
import { applyRuntimeGrants, ensureRuntimeLogin, ensureRuntimeRole, isSeparateLogin, loginOf } from './runtime-role.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url));

export interface MigrationReport {
  applied: string[];
}

export interface MigrateOptions {
  /** Where pg-boss reports errors while it installs its schema. */
  log?: Logger | undefined;
  /** What the app connects as (DATABASE_URL). A user other than the owner's becomes a member of wallet_runtime. */
  runtimeUrl?: string | undefined;
  /** Set the runtime login's password even if the role exists (the embedded server: every role there is ours). */
  resetRuntimePassword?: boolean;
}

export async function migrateDatabase(
  ownerUrl: string,
  queues: readonly QueueSpec[],
  options: MigrateOptions = {},
): Promise<MigrationReport> {
  const db = openMigrationDatabase(ownerUrl);
  try {
    // Before the migrations: they may name the role (replay's functions grant to it).
    await ensureRuntimeRole(db);
    const { error, results } = await migrator(db).migrateToLatest();
    const failed = results?.find((result) => result.status === 'Error');
    if (error || failed) {
      throw new Error(
        `migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    await installJobQueues(ownerUrl, queues, options.log);
    await applyRuntimeGrants(db);
    if (options.runtimeUrl && isSeparateLogin(ownerUrl, options.runtimeUrl)) {
      await ensureRuntimeLogin(db, loginOf(options.runtimeUrl), {
        resetPassword: options.resetRuntimePassword ?? false,
      });
    }
    return { applied: (results ?? []).map((result) => result.migrationName) };
  } finally {
    await db.destroy();
  }
}

/**
 * Migrations in migrations/ not yet applied to the database at `url`; every one of them when
 * it was never migrated. Reads only (the runtime role may SELECT the migrator's table).
 */
export async function pendingMigrations(url: string): Promise<string[]> {
  const db = openMigrationDatabase(url);
  try {
    return await pendingMigrationsOf(db);
  } finally {
    await db.destroy();
  }
}

/** The same, over a connection the caller already has (the readiness probes ask on every call). */
export async function pendingMigrationsOf(db: Kysely<unknown>): Promise<string[]> {
  const migrations = await migrator(db).getMigrations();
  return migrations.filter((migration) => !migration.executedAt).map((migration) => migration.name);
}

/** For a start without an owner connection: refuses a database that needs migrating, saying how to fix it. */
export async function assertMigrationsCurrent(url: string): Promise<void> {
  let pending: string[];
  try {
    pending = await pendingMigrations(url);
  } catch (error) {
    // 42501: no SELECT on the migrator's table - the runtime's grants were never applied here.
    if ((error as { code?: string }).code !== '42501') throw error;
    throw new Error(
      'The runtime role may not read the migration table: its grants are missing. Run `npm run migrate` as the owner (DATABASE_OWNER_URL).',
      { cause: error },
    );
  }
  if (pending.length > 0) {
    throw new Error(
      `The database needs migrations (${pending.length} pending: ${pending.join(', ')}). ` +
        'This process connects as the runtime role (DATABASE_URL) and may not change the schema: run `npm run migrate` ' +
        '(as the owner: DATABASE_OWNER_URL, or DATABASE_URL in a single-role setup), or set DATABASE_OWNER_URL for this process.',
    );
  }
}

/**
 * One connection, with the app's pool and its error listeners: pg-pool's end() resolves before
 * its clients have closed, and a client terminated meanwhile (a test dropping its database
 * WITH (FORCE) right after) emitted 'error' with no listener, which killed the test run.
 */
function openMigrationDatabase(url: string): Kysely<unknown> {
  return new Kysely<unknown>({
    dialect: new PostgresDialect({
      pool: createPool({ connectionString: url, maxConnections: 1, applicationName: 'wallet-migrate' }),
    }),
  });
}

function migrator(db: Kysely<unknown>): Migrator {
  return new Migrator({ db, provider: new FileMigrationProvider({ fs, path, migrationFolder: MIGRATIONS_DIR }) });
}
