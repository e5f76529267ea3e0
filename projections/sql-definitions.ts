/**
 * What the read side installs beyond its tables: its schemas' names, and its SQL definition
 * files in dependency order (SQL-language bodies are checked against what they name when
 * created): replay's functions, the shared helpers and pg_temp.define_rule (engine/rules.sql)
 * that each projection's rules need, the history search's keys, each projection's rules, then
 * the batch runner that calls them. Applied after the ledger's by the migration run, which
 * runtime/installation.ts hands them to.
 */

/** The read tables (`read`), the projector's functions (`projector`) and replay's (`replay`). */
export const PROJECTION_SCHEMAS: readonly string[] = ['projector', 'read', 'replay'];

export const PROJECTION_SQL_DEFINITIONS: readonly URL[] = [
  new URL('./engine/replay.sql', import.meta.url),
  new URL('./engine/rules.sql', import.meta.url),
  new URL('./history/search-keys.sql', import.meta.url),
  new URL('./accounts/rules.sql', import.meta.url),
  new URL('./history/rules.sql', import.meta.url),
  new URL('./money-requests/rules.sql', import.meta.url),
  new URL('./statements/rules.sql', import.meta.url),
  new URL('./engine/run-batch.sql', import.meta.url),
];
