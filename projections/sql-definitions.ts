/**
 * The read side's SQL definition files, in dependency order (SQL-language bodies are checked
 * against what they name when created): replay's functions, the shared helpers and
 * pg_temp.define_rule (engine/rules.sql) that each projection's rules need, the history
 * search's keys, each projection's rules, then the batch runner that calls them. Applied after
 * the ledger's by the migration run, which runtime/installation.ts hands them to.
 */
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
