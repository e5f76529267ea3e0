/**
 * Projection "accounts": the directory of display names, every account's balance (funding
 * accounts have no maintained head in the ledger, so their balances exist only here) and
 * per-account statements with a running balance. Its rules: `projector.apply_accounts`
 * (projections/accounts/rules.sql).
 */
import type { Projection } from '../engine/definition.ts';

export const accountsProjection: Projection = {
  name: 'accounts',
  tables: ['directory', 'balances', 'statements'],
  insertOnlyTables: ['statements'],
};
