/**
 * Projection "money_requests": every request with both parties' names, its status and when
 * it was made and last answered. The API splits it into sent (requester) and received
 * (payer). Its rules: `projector.apply_money_requests` (projections/money-requests/rules.sql);
 * replay's set-based load, `projector.bulk_replay_money_requests` (same file).
 */
import type { Projection } from '../engine/definition.ts';

export const moneyRequestsProjection: Projection = {
  name: 'money_requests',
  tables: ['money_requests'],
  bulkReplay: 'bulk_replay_money_requests',
  // WalletOpened only as a lookup: the two parties' names.
  handles: ['MoneyRequested', 'MoneyRequestAccepted', 'MoneyRequestRejected', 'WalletOpened'],
};
