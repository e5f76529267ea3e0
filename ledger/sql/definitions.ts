/**
 * The ledger's SQL definition files, in the order they are applied (the migration run applies
 * them after the versioned migrations; runtime/installation.ts hands them to it): the trigger
 * functions first, then `append_batch`, which `append` calls as a batch of one.
 */
export const LEDGER_SQL_DEFINITIONS: readonly URL[] = [
  new URL('./invariants.sql', import.meta.url),
  new URL('./append-batch.sql', import.meta.url),
  new URL('./append.sql', import.meta.url),
  new URL('./open-wallet-account.sql', import.meta.url),
  new URL('./expire-idempotency-keys.sql', import.meta.url),
];
