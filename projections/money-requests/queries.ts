/**
 * What the API reads of projection "money_requests": a user's requests sent and received.
 */
import type { Kysely, Selectable } from 'kysely';
import type { ReadTables } from '../tables.ts';
import type { MoneyRequestRow } from './tables.ts';

export interface MoneyRequestLists {
  sent: Selectable<MoneyRequestRow>[];
  received: Selectable<MoneyRequestRow>[];
}

/** Sent = the account asked for money; received = the account was asked. Newest first. */
export async function readMoneyRequests(db: Kysely<ReadTables>, accountId: string): Promise<MoneyRequestLists> {
  const [sent, received] = await Promise.all([
    db
      .selectFrom('read.money_requests')
      .selectAll()
      .where('requester_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .orderBy('position', 'desc')
      .execute(),
    db
      .selectFrom('read.money_requests')
      .selectAll()
      .where('payer_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .orderBy('position', 'desc')
      .execute(),
  ]);
  return { sent, received };
}
