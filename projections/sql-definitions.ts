/**
 * What the read side installs beyond its tables: its schemas' names, and its SQL definition
 * files in dependency order (SQL-language bodies are checked against what they name when
 * created): replay's functions, the shared helpers and pg_temp.define_rule (engine/rules.sql)
 * that each projection's rules need, the history search's keys, each projection's rules, then
 * the batch runner that calls them. Applied after the ledger's by the migration run, which
 * runtime/installation.ts hands them to.
 */

/**
 * The projector's functions (`projector`: the rules, which run as their caller), the read
 * tables (`read`: the runtime's own, written row by row) and replay's functions (`replay`: its
 * DDL, done as the owner on fixed tables), with what the runtime role may do in each.
 */
export const PROJECTION_SCHEMAS = [
  { schema: 'projector', tables: [], functions: true },
  { schema: 'read', tables: ['select', 'insert', 'update', 'delete'], functions: false },
  { schema: 'replay', tables: [], functions: true },
] as const;

export const PROJECTION_SQL_DEFINITIONS: readonly URL[] = [
  new URL('./engine/replay.sql', import.meta.url),
  new URL('./engine/rules.sql', import.meta.url),
  new URL('./history/search-keys.sql', import.meta.url),
  new URL('./accounts/rules.sql', import.meta.url),
  new URL('./history/rules.sql', import.meta.url),
  new URL('./money-requests/rules.sql', import.meta.url),
  new URL('./statement-days/rules.sql', import.meta.url),
  new URL('./engine/run-batch.sql', import.meta.url),
];
