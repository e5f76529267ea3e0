/**
 * Projection "statement_days": per wallet and per Asia/Kolkata calendar day, money in, money
 * out, the closing balance and the number of postings (read.statement_days), for users' charts
 * and statement downloads. Its rules: `projector.apply_statement_days`
 * (projections/statement-days/rules.sql); a replay loads it in one set-based pass over the
 * postings, `projector.bulk_replay_statement_days` (same file).
 *
 * Not to be confused with read.statement_lines, projection "accounts"' one row per posting
 * with its running balance: a downloaded statement lists those lines and takes its totals here.
 */
import { POSTING_EVENT_TYPES } from '../../ledger/index.ts';
import type { Projection } from '../engine/definition.ts';

export const statementDaysProjection: Projection = {
  name: 'statement_days',
  tables: ['statement_days'],
  handles: POSTING_EVENT_TYPES,
  bulkReplay: 'bulk_replay_statement_days',
  // The charts and statements read it, never right after a payment.
  deferred: true,
};
