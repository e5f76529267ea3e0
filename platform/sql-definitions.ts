/**
 * The repeatable step of a migration run: every SQL function is defined in exactly one .sql
 * file beside the code that calls it, and after the versioned migrations (which change tables,
 * indexes and data only) the files it is handed are applied, in the order given, in the
 * migration run's transaction (platform/migrate.ts). Each domain lists its own files; the
 * composition root puts the lists together. Each file is idempotent (CREATE OR REPLACE; a
 * function keeps its owner and grants when replaced, and the files revoke PUBLIC's EXECUTE
 * where the runtime's grants will add the runtime's), so every run applies them all and a
 * changed body takes effect at the next `npm run migrate`. A function that goes away needs a
 * versioned migration that drops it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';

const REPOSITORY_ROOT = fileURLToPath(new URL('../', import.meta.url));

/** A definition file's path from the repository's root, as messages and the map name it. */
export function definitionName(file: URL): string {
  return path.relative(REPOSITORY_ROOT, fileURLToPath(file)).split(path.sep).join('/');
}

export function readSqlDefinition(file: URL): string {
  return readFileSync(file, 'utf8');
}

/** Applies the definition files in order, as the owner, on `db` (the migration run's transaction). */
export async function applySqlDefinitions(db: Kysely<unknown>, files: readonly URL[]): Promise<void> {
  for (const file of files) {
    try {
      await sql.raw(readSqlDefinition(file)).execute(db);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(`${definitionName(file)}: ${message}`, { cause: error });
    }
  }
}
