/**
 * What the ledger installs beyond its tables: its schema's name, and its SQL definition files
 * in the order they are applied (the migration run applies them after the versioned
 * migrations; runtime/installation.ts hands them to it): the trigger functions first, the
 * idempotency records' digest, then `append_batch`, which `append` calls as a batch of one.
 */

/**
 * The schema of the ledger's tables and functions (migrations/0001_baseline.ts creates it), and
 * what the runtime role may do in it: read the tables and call the functions, never write a
 * table (appends go through ledger.append, which runs as the owner).
 */
export const LEDGER_SCHEMAS = [{ schema: 'ledger', tables: ['select'], functions: true }] as const;

export const LEDGER_SQL_DEFINITIONS: readonly URL[] = [
  new URL('./invariants.sql', import.meta.url),
  new URL('./idempotency-digest.sql', import.meta.url),
  new URL('./append-batch.sql', import.meta.url),
  new URL('./append.sql', import.meta.url),
  new URL('./open-wallet-account.sql', import.meta.url),
  new URL('./expire-idempotency-keys.sql', import.meta.url),
];
