/**
 * The repeatable step of a migration run: every SQL function of the ledger and the projections
 * is defined in exactly one .sql file beside the code that calls it, and after the versioned
 * migrations (which change tables, indexes and data only) these files are applied, in the order
 * below, in the migration run's transaction (platform/migrate.ts). Each file is idempotent
 * (CREATE OR REPLACE; a function keeps its owner and grants when replaced, and the files
 * revoke PUBLIC's EXECUTE where the runtime's grants will add the runtime's), so every run
 * applies them all and a changed body takes effect at the next `npm run migrate`. A function
 * that goes away needs a versioned migration that drops it.
 */
import { readFileSync } from 'node:fs';
import { sql, type Kysely } from 'kysely';

/**
 * Dependency order: SQL-language bodies are checked against what they name when created, and
 * the projections' rules need the shared helpers (and pg_temp.define_rule) of engine/rules.sql.
 */
export const SQL_DEFINITION_FILES = [
  'ledger/sql/invariants.sql',
  'ledger/sql/append-batch.sql',
  'ledger/sql/append.sql',
  'ledger/sql/open-wallet-account.sql',
  'ledger/sql/expire-idempotency-keys.sql',
  'projections/engine/replay.sql',
  'projections/engine/rules.sql',
  'projections/history/search-keys.sql',
  'projections/accounts/rules.sql',
  'projections/history/rules.sql',
  'projections/money-requests/rules.sql',
  'projections/statements/rules.sql',
  'projections/engine/run-batch.sql',
] as const;

export type SqlDefinitionFile = (typeof SQL_DEFINITION_FILES)[number];

/** A definition file's text (paths are relative to the repository's root). */
export function readSqlDefinition(file: SqlDefinitionFile): string {
  return readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
}

/** Applies every definition file in order, as the owner, on `db` (the migration run's transaction). */
export async function applySqlDefinitions(db: Kysely<unknown>): Promise<void> {
  for (const file of SQL_DEFINITION_FILES) {
    try {
      await sql.raw(readSqlDefinition(file)).execute(db);
    } catch (error) {
      throw new Error(`${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
}
