/**
 * Projection "history": each user's transaction list, one row per participant of each
 * money movement, typed as that participant sees it ('deposit', 'debit', 'credit'), with
 * deposits updated in place when they settle or fail and reversals as rows of their own;
 * and each user's number of rows per type (read.history_counts) for page totals, and the
 * accounts whose earlier rows wait to be keyed for search (read.history_keying); and who made
 * each event (read.event_actors), for the admin explorer's actor filter. Its rules:
 * `projector.apply_history` (projections/history/rules.sql); a replay loads it in one set-based
 * pass, `projector.bulk_replay_history` (same file).
 *
 * Counts (and the keying list, read with them) before rows: a replay's swap takes the tables'
 * locks in this order, the order in which a history page reads them (readHistoryPage, one
 * transaction) - the other order deadlocks.
 */
import type { Projection } from '../engine/definition.ts';

export const historyProjection: Projection = {
  name: 'history',
  tables: ['history_counts', 'history_keying', 'history', 'event_actors'],
  // WalletOpened only as a lookup: a counterparty's name as it was when the wallet opened.
  handles: [
    'DepositRequested',
    'DepositSettled',
    'DepositFailed',
    'DepositReversed',
    'TransferCompleted',
    'TransferReversed',
    'MoneyRequestAccepted',
    'MoneyRequestPaymentReversed',
    'WalletOpened',
  ],
  bulkReplay: 'bulk_replay_history',
  // An account's earlier rows, keyed once its count passes the bound: ~1 s for 2,000 rows, so
  // not in the round every reply waits for (migration 0022).
  afterRounds: 'key_earlier_history',
  // The load inserts ~2 rows an event in the log's order: their keys are built after it.
  keysAfterBulkLoad: ['history', 'event_actors'],
};
