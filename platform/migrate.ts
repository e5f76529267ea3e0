/**
 * Schema migrations: forward-only Kysely migrations from migrations/, each in its own
 * transaction, then pg-boss's own schema and the project's queues.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kysely, PostgresDialect } from 'kysely';
import { FileMigrationProvider, Migrator } from 'kysely/migration';
import pg from 'pg';
import { installJobQueues, type QueueSpec } from './jobs.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url));

export interface MigrationReport {
  applied: string[];
}

export async function migrateDatabase(connectionString: string, queues: readonly QueueSpec[]): Promise<MigrationReport> {
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString, max: 1 }) }) });
  try {
    const migrator = new Migrator({
      db,
      provider: new FileMigrationProvider({ fs, path, migrationFolder: MIGRATIONS_DIR }),
    });
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((result) => result.status === 'Error');
    if (error || failed) {
      throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    await installJobQueues(connectionString, queues);
    return { applied: (results ?? []).map((result) => result.migrationName) };
  } finally {
    await db.destroy();
  }
}
