/**
 * What the API reads of projection "money_requests": a user's requests sent and received.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { MoneyRequestRow, MoneyRequestsTables } from './tables.ts';

export interface MoneyRequestLists {
  sent: Selectable<MoneyRequestRow>[];
  received: Selectable<MoneyRequestRow>[];
}

/** Sent = the account asked for money; received = the account was asked. Newest first. */
export async function readMoneyRequests(
  db: Kysely<MoneyRequestsTables>,
  accountId: string,
): Promise<MoneyRequestLists> {
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

export interface MoneyRequestPageQuery {
  /** At most this many requests. */
  limit: number;
  /** Only requests older than this one (its request id; newest-first order). */
  before?: string | undefined;
}

/**
 * One page of a user's requests, sent and received together, newest first (created_at, then
 * the event's position): the newest `limit` of each side through its index, merged. With
 * `before`: older than that request, compared in the database (created_at keeps microseconds
 * a JavaScript Date would lose). Undefined when `before` is not a request of this user.
 */
export async function readMoneyRequestPage(
  db: Kysely<MoneyRequestsTables>,
  accountId: string,
  query: MoneyRequestPageQuery,
): Promise<Selectable<MoneyRequestRow>[] | undefined> {
  if (query.before !== undefined) {
    const cursor = await db
      .selectFrom('read.money_requests')
      .select('request_id')
      .where('request_id', '=', query.before)
      .where((eb) => eb.or([eb('requester_id', '=', accountId), eb('payer_id', '=', accountId)]))
      .executeTakeFirst();
    if (!cursor) return undefined;
  }
  const older =
    query.before === undefined
      ? sql``
      : sql`and (m.created_at, m.position) < (select c.created_at, c.position from read.money_requests c where c.request_id = ${query.before})`;
  const { rows } = await sql<Selectable<MoneyRequestRow>>`
    select r.* from (
      (select m.* from read.money_requests m where m.requester_id = ${accountId} ${older}
        order by m.created_at desc, m.position desc limit ${query.limit})
      union all
      (select m.* from read.money_requests m where m.payer_id = ${accountId} ${older}
        order by m.created_at desc, m.position desc limit ${query.limit})
    ) r
    order by r.created_at desc, r.position desc
    limit ${query.limit}`.execute(db);
  return rows;
}
