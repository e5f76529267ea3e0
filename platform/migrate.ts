/**
 * Schema migrations, run as the owner: the runtime role (platform/runtime-role.ts); then, in one
 * transaction, the forward-only Kysely migrations from migrations/ (tables, indexes, data) and
 * the SQL definition files it is handed (./sql-definitions.ts: every function, replaced on each
 * run); then pg-boss's own schema and the queues it is handed, the runtime's grants by schema policy and,
 * when the app connects as another user, that login as a member of the runtime role.
 * Also the check a runtime start makes instead (it may not migrate): are migrations current?
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { FileMigrationProvider, Migrator } from 'kysely/migration';
import { createPool } from './database.ts';
import { installJobQueues, type QueueSpec } from './jobs.ts';
import type { Logger } from './logger.ts';
import { applySqlDefinitions } from './sql-definitions.ts';
import {
  applyRuntimeGrants,
  ensureRuntimeLogin,
  ensureRuntimeRole,
  isSeparateLogin,
  loginOf,
  type SchemaPolicy,
} from './runtime-role.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url));

/** Serialises migration runs: the history's rewrite below happens before the migrator's own lock. */
const MIGRATE_LOCK = 'wallet:migrate';

/** The migration the squashed history became. */
export const BASELINE_MIGRATION = '0001_baseline';

/**
 * The migrations the baseline replaced, in order. A database migrated before the squash has all
 * of them in its history and exactly the baseline's tables, indexes and data (the functions are
 * replaced by the definition files in the same run).
 */
export const SQUASHED_MIGRATIONS = [
  '0001_ledger',
  '0002_read_model',
  '0003_identity',
  '0004_audit',
  '0005_lean_append',
  '0006_history_reads',
  '0007_history_counts',
  '0008_rate_limits',
  '0009_admin_safety',
  '0010_runtime_role',
  '0011_pin_verifier',
  '0012_append_batch',
  '0013_lean_writes',
  '0014_sql_projections',
  '0015_growth',
  '0016_statements_projection',
  '0017_statements_one_pass',
  '0018_projector_batch',
  '0019_static_projection_rules',
  '0020_projector_tail_check',
  '0021_live_rules_without_seqscans',
  '0022_history_search_indexes',
  '0023_solo_money_actions',
] as const;

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

/**
 * What the domains install beyond the versioned migrations, put together by the composition
 * root (runtime/installation.ts): the runner names no domain's files.
 */
export interface Installation {
  /** SQL definition files, in the order they are applied. */
  sqlDefinitions: readonly URL[];
  queues: readonly QueueSpec[];
  /** What the runtime role may do in each schema the migrations create (applyRuntimeGrants). */
  schemaPolicies: readonly SchemaPolicy[];
  /** The same schemas' names, each named by the code that owns its tables (the schema dump reads them). */
  schemas: readonly string[];
}

export async function migrateDatabase(
  ownerUrl: string,
  installation: Installation,
  options: MigrateOptions = {},
): Promise<MigrationReport> {
  const db = openMigrationDatabase(ownerUrl);
  try {
    // Before the migrations: the definition files name the role (replay's functions grant to it).
    await ensureRuntimeRole(db);
    const results = await db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext(${MIGRATE_LOCK}))`.execute(trx);
      await adoptSquashedHistory(trx);
      const { error, results } = await migrator(trx).migrateToLatest();
      const failed = results?.find((result) => result.status === 'Error');
      if (error || failed) {
        throw new Error(
          `migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }
      await applySqlDefinitions(trx, installation.sqlDefinitions);
      return results ?? [];
    });
    await installJobQueues(ownerUrl, installation.queues, options.log);
    await applyRuntimeGrants(db, installation.schemaPolicies);
    if (options.runtimeUrl && isSeparateLogin(ownerUrl, options.runtimeUrl)) {
      await ensureRuntimeLogin(db, loginOf(options.runtimeUrl), {
        resetPassword: options.resetRuntimePassword ?? false,
      });
    }
    return { applied: results.map((result) => result.migrationName) };
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
 * A database migrated before the squash: its history names every squashed migration and not the
 * baseline. Its schema is the baseline's, so the history is rewritten to say so (one row, dated
 * when the last of them ran), in the run's transaction; Kysely would otherwise refuse migrations
 * it has no file for. A history that stops part-way is refused: it needs the squashed
 * migrations it lacks, which only a checkout from before the squash has.
 */
async function adoptSquashedHistory(db: Kysely<unknown>): Promise<void> {
  const { rows: tables } = await sql<{ found: boolean }>`
    select to_regclass('public.kysely_migration') is not null as found`.execute(db);
  if (!tables[0]?.found) return;
  const { rows } = await sql<{ name: string; timestamp: string }>`
    select name, timestamp from public.kysely_migration where name = any(${[...SQUASHED_MIGRATIONS]})`.execute(db);
  if (rows.length === 0) return;
  const names = new Set(rows.map((row) => row.name));
  const missing = SQUASHED_MIGRATIONS.filter((name) => !names.has(name));
  if (missing.length > 0) {
    throw new Error(
      `This database stopped before migration ${missing[0]}, which is now part of ${BASELINE_MIGRATION}: ` +
        'migrate it with a release from before the squash first, then with this one.',
    );
  }
  const lastRun = rows
    .map((row) => row.timestamp)
    .sort((a, b) => Date.parse(a) - Date.parse(b))
    .at(-1);
  await sql`delete from public.kysely_migration where name = any(${[...SQUASHED_MIGRATIONS]})`.execute(db);
  await sql`insert into public.kysely_migration (name, timestamp) values (${BASELINE_MIGRATION}, ${lastRun})`.execute(
    db,
  );
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
