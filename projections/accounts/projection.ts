/**
 * Projection "accounts": the directory of display names, every account's balance (funding
 * accounts have no maintained head in the ledger, so their balances exist only here) and
 * per-account statement lines with a running balance (read.statement_lines). Its rules:
 * `projector.apply_accounts` (projections/accounts/rules.sql); a replay loads it in one
 * set-based pass, `projector.bulk_replay_accounts` (same file).
 */
import { POSTING_EVENT_TYPES } from '../../ledger/index.ts';
import type { Projection } from '../engine/definition.ts';

export const accountsProjection: Projection = {
  name: 'accounts',
  tables: ['directory', 'balances', 'statement_lines'],
  handles: ['WalletOpened', ...POSTING_EVENT_TYPES],
  insertOnlyTables: ['statement_lines'],
  bulkReplay: 'bulk_replay_accounts',
};
