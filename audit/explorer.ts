/**
 * Ledger explorer: the log filtered by stream, type, actor and time range, in pages keyed
 * by position (`position > after`, ascending: a page never repeats or skips a row of the
 * pages before it), and one event with its postings.
 *
 * Positions are taken before commit, so an event can commit after a page past its position
 * was read; it appears on a fresh walk (the projector's (tx_id, position) cursor exists for
 * exactly that, see the read-side section; a browsing tool does not need it).
 */
import { sql, type Kysely } from 'kysely';
import { rupeesFromPaise } from '../contracts/money.ts';
import { toRawEvent, type RawEvent, type RawEventPage } from './statements.ts';
import type { EventDetail, EventPosting } from '../contracts/admin.ts';
export type { EventDetail, EventPosting } from '../contracts/admin.ts';

export interface ExplorerFilter {
  stream?: string | undefined;
  type?: string | undefined;
  actor?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

export async function listEvents(db: Kysely<unknown>, filter: ExplorerFilter, after: bigint | undefined, limit: number): Promise<RawEventPage> {
  const { rows } = await sql<Parameters<typeof toRawEvent>[0]>`
    select e.position, e.tx_id::text as tx_id, e.stream_id, e.stream_version, e.type, e.data, e.metadata, e.recorded_at
      from ledger.events e
     where (${after ?? null}::bigint is null or e.position > ${after ?? null}::bigint)
       and (${filter.stream ?? null}::text is null or e.stream_id = ${filter.stream ?? null}::text)
       and (${filter.type ?? null}::text is null or e.type = ${filter.type ?? null}::text)
       and (${filter.actor ?? null}::text is null or e.metadata->>'actorId' = ${filter.actor ?? null}::text)
       and (${filter.from ?? null}::timestamptz is null or e.recorded_at >= ${filter.from ?? null}::timestamptz)
       and (${filter.to ?? null}::timestamptz is null or e.recorded_at < ${filter.to ?? null}::timestamptz)
     order by e.position
     limit ${limit + 1}`.execute(db);
  const page = rows.slice(0, limit);
  return { items: page.map(toRawEvent), nextAfter: rows.length > limit ? String(page.at(-1)?.position) : null };
}



export async function readEvent(db: Kysely<unknown>, position: bigint): Promise<EventDetail | undefined> {
  const { rows } = await sql<Parameters<typeof toRawEvent>[0]>`
    select position, tx_id::text as tx_id, stream_id, stream_version, type, data, metadata, recorded_at
      from ledger.events where position = ${position}`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  const postings = await sql<{ account_id: string; display_name: string | null; amount: bigint; account_seq: bigint | null; balance_after: bigint | null }>`
    select p.account_id, d.display_name, p.amount, p.account_seq, p.balance_after
      from ledger.postings p left join read.directory d on d.account_id = p.account_id
     where p.position = ${position} order by p.amount, p.account_id`.execute(db);
  return {
    ...toRawEvent(row),
    postings: postings.rows.map((p) => ({
      accountId: p.account_id,
      accountName: p.display_name,
      amount: rupeesFromPaise(p.amount),
      accountSeq: p.account_seq === null ? null : String(p.account_seq),
      balanceAfter: p.balance_after === null ? null : rupeesFromPaise(p.balance_after),
    })),
  };
}
