/**
 * The ledger explorer: the log filtered by stream, type, actor, account and time, in pages
 * keyed by position (`position > after`, ascending: a page never repeats or skips a row of
 * the pages before it); one event with its postings; and every event of an account's
 * streams. The admin's explorer and account pages and `npm run ledger -- events` all read
 * through here.
 *
 * Positions are taken before commit, so an event can commit after a page past its position
 * was read; it appears on a fresh walk (the projector's (tx_id, position) cursor exists for
 * exactly that, see the read-side section; a browsing tool does not need it).
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { LedgerEventType } from '../ledger/index.ts';
import type { EventDetail, RawEvent, RawEventPage } from '../contracts/admin.ts';
import { rupeesFromPaise } from '../contracts/money.ts';
import { keysetPage, type PageRequest } from './paging.ts';

export interface EventFilter {
  stream?: string | undefined;
  type?: string | undefined;
  /** Who appended it (metadata.actorId), as the history projection has recorded it (read.event_actors). */
  actor?: string | undefined;
  /** Events that post to the account or name it in their data (`ledger events --account`). */
  account?: string | undefined;
  /** Every event of every stream the account takes part in (the admin's account page). */
  streamsOf?: string | undefined;
  /** Recorded at or after. */
  from?: Date | undefined;
  /** Recorded before. */
  to?: Date | undefined;
}

/** A posting as the log holds it, with the account's name from the directory projection. */
export interface PostingLine {
  accountId: string;
  accountName: string | null;
  amountPaise: bigint;
  accountSeq: bigint | null;
  balanceAfterPaise: bigint | null;
}

interface EventRowRaw {
  position: bigint;
  tx_id: string;
  stream_id: string;
  stream_version: number;
  type: string;
  data: unknown;
  metadata: { actorId?: string; idempotencyKey?: string; requestId?: string; command?: string } | null;
  recorded_at: Date;
}

/** The data fields that name an account, in the events that have them. */
const ACCOUNT_FIELDS = ['accountId', 'walletId', 'fromAccountId', 'toAccountId', 'requesterId', 'payerId'];

export async function listEvents(db: Kysely<unknown>, filter: EventFilter, page: PageRequest): Promise<RawEventPage> {
  const { rows } = await sql<EventRowRaw>`
    select e.position, e.tx_id::text as tx_id, e.stream_id, e.stream_version, e.type, e.data, e.metadata, e.recorded_at
      from ledger.events e
     where ${sql.join(conditions(filter, page.after), sql` and `)}
     order by e.position
     limit ${page.limit + 1}`.execute(db);
  const { items, next } = keysetPage(rows, page.limit, (row) => row.position, toRawEvent);
  return { items, nextAfter: next };
}

/**
 * Every event of every stream the account takes part in: its wallet stream, the streams
 * with postings on it (transfers, settled deposits, accepted requests, reversals), and the
 * streams that name it without moving money yet (pending or failed deposits, requests).
 * Found in the log itself, not the read tables, so a lagging projection hides nothing.
 */
export async function readAccountEvents(
  db: Kysely<unknown>,
  accountId: string,
  page: PageRequest,
): Promise<RawEventPage> {
  return listEvents(db, { streamsOf: accountId }, page);
}

function conditions(filter: EventFilter, after: bigint | undefined): RawBuilder<unknown>[] {
  const where: RawBuilder<unknown>[] = [sql`true`];
  if (after !== undefined) where.push(sql`e.position > ${after}`);
  if (filter.stream !== undefined) where.push(sql`e.stream_id = ${filter.stream}`);
  if (filter.type !== undefined) where.push(sql`e.type = ${filter.type}`);
  // Through the history projection's read table (no index on the log serves it): an event
  // appears here once that projection has applied it, like on every other read.
  if (filter.actor !== undefined)
    where.push(sql`e.position in (select a.position from read.event_actors a where a.actor_id = ${filter.actor})`);
  if (filter.from !== undefined) where.push(sql`e.recorded_at >= ${filter.from}`);
  if (filter.to !== undefined) where.push(sql`e.recorded_at < ${filter.to}`);
  if (filter.account !== undefined) where.push(postsToOrNames(filter.account));
  if (filter.streamsOf !== undefined) where.push(sql`e.stream_id in (${streamsOf(filter.streamsOf)})`);
  return where;
}

function postsToOrNames(accountId: string): RawBuilder<unknown> {
  const inData = ACCOUNT_FIELDS.map((field) => sql`e.data->>${field} = ${accountId}`);
  return sql`(exists (select 1 from ledger.postings p where p.position = e.position and p.account_id = ${accountId}) or ${sql.join(inData, sql` or `)})`;
}

/** Postings by their account index; the first events of deposits and requests by type. */
function streamsOf(accountId: string): RawBuilder<unknown> {
  return sql`
    select ${`wallet-${accountId}`}::text
    union select e.stream_id from ledger.postings p join ledger.events e on e.position = p.position where p.account_id = ${accountId}
    union select stream_id from ledger.events
           where type in (${sql.lit('DepositRequested' satisfies LedgerEventType)}, ${sql.lit('MoneyRequested' satisfies LedgerEventType)})
             and (data->>'walletId' = ${accountId} or data->>'requesterId' = ${accountId} or data->>'payerId' = ${accountId})`;
}

export async function readEvent(db: Kysely<unknown>, position: bigint): Promise<EventDetail | undefined> {
  const { rows } = await sql<EventRowRaw>`
    select position, tx_id::text as tx_id, stream_id, stream_version, type, data, metadata, recorded_at
      from ledger.events where position = ${position}`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  const postings = (await readPostings(db, [position])).get(String(position)) ?? [];
  // Debits first, as an auditor reads a journal entry (the sort is stable: ties keep account order).
  const byAmount = postings.toSorted((a, b) =>
    a.amountPaise < b.amountPaise ? -1 : a.amountPaise > b.amountPaise ? 1 : 0,
  );
  return {
    ...toRawEvent(row),
    postings: byAmount.map((p) => ({
      accountId: p.accountId,
      accountName: p.accountName,
      amount: rupeesFromPaise(p.amountPaise),
      accountSeq: p.accountSeq === null ? null : String(p.accountSeq),
      balanceAfter: p.balanceAfterPaise === null ? null : rupeesFromPaise(p.balanceAfterPaise),
    })),
  };
}

/** The postings of the given events, per position (as text), each event's in account order. */
export async function readPostings(
  db: Kysely<unknown>,
  positions: readonly bigint[],
): Promise<Map<string, PostingLine[]>> {
  const { rows } = await sql<{
    position: bigint;
    account_id: string;
    display_name: string | null;
    amount: bigint;
    account_seq: bigint | null;
    balance_after: bigint | null;
  }>`
    select p.position, p.account_id, d.display_name, p.amount, p.account_seq, p.balance_after
      from ledger.postings p left join read.directory d on d.account_id = p.account_id
     where p.position = any(${positions.map(String)}::bigint[]) order by p.position, p.account_id`.execute(db);
  const byPosition = new Map<string, PostingLine[]>();
  for (const row of rows) {
    const lines = byPosition.get(String(row.position)) ?? [];
    lines.push({
      accountId: row.account_id,
      accountName: row.display_name,
      amountPaise: row.amount,
      accountSeq: row.account_seq,
      balanceAfterPaise: row.balance_after,
    });
    byPosition.set(String(row.position), lines);
  }
  return byPosition;
}

function toRawEvent(row: EventRowRaw): RawEvent {
  return {
    position: String(row.position),
    txId: row.tx_id,
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    type: row.type,
    data: row.data,
    actorId: row.metadata?.actorId ?? null,
    idempotencyKey: row.metadata?.idempotencyKey ?? null,
    requestId: row.metadata?.requestId ?? null,
    command: row.metadata?.command ?? null,
    recordedAt: row.recorded_at.toISOString(),
  };
}
