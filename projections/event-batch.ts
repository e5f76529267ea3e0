/**
 * The projectors' view of the log: the next batch of events after a checkpoint, in
 * (tx_id, position) order, and only from transactions older than the snapshot xmin.
 *
 * Why both: positions come from a sequence taken before commit, so events commit out of
 * position order. Every transaction with an xid below the xmin of the current snapshot has
 * finished, and every transaction that has not started writing yet will get a larger xid,
 * so the set of events below the xmin only ever grows at its end in (tx_id, position)
 * order: a cursor on that pair never has an event appear behind it.
 */
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { toRecordedEvent, type EventRow, type PostingRow, type RecordedEvent } from '../ledger/index.ts';
import type { Checkpoint } from './checkpoint.ts';

export type ProjectedEvent = RecordedEvent & { postings: PostingRow[] };

/** Any transaction will do: projectors run on a view typed with their own tables. */
export type AnyTransaction = Transaction<unknown>;

export async function readEventBatch(trx: AnyTransaction, after: Checkpoint, limit: number): Promise<ProjectedEvent[]> {
  const { rows } = await sql<Selectable<EventRow>>`
    select e.position, e.tx_id::text as tx_id, e.stream_id, e.stream_version, e.type, e.data, e.metadata, e.recorded_at
      from ledger.events e
     where (e.tx_id, e.position) > (${after.txId.toString()}::xid8, ${after.position.toString()}::bigint)
       and e.tx_id < pg_snapshot_xmin(pg_current_snapshot())
     -- e.tx_id, not the text output column of the same name: "1021" sorts before "974".
     order by e.tx_id, e.position
     limit ${limit}`.execute(trx);
  if (rows.length === 0) return [];
  const postings = await readPostings(
    trx,
    rows.map((row) => row.position),
  );
  return rows.map((row) => ({ ...toRecordedEvent(row), postings: postings.get(row.position) ?? [] }));
}

async function readPostings(trx: AnyTransaction, positions: bigint[]): Promise<Map<bigint, PostingRow[]>> {
  const { rows } = await sql<PostingRow>`
    select position, account_id, amount, account_seq, balance_after
      from ledger.postings
     where position = any(${positions.map(String)}::bigint[])
     order by position, account_id`.execute(trx);
  const byPosition = new Map<bigint, PostingRow[]>();
  for (const row of rows) {
    const list = byPosition.get(row.position) ?? [];
    list.push(row);
    byPosition.set(row.position, list);
  }
  return byPosition;
}

export function checkpointOf(event: ProjectedEvent): Checkpoint {
  return { txId: BigInt(event.txId), position: event.position };
}

/** Committed events after the checkpoint that the xmin gate still holds back (or not yet read). */
export async function hasEventsAfter(trx: AnyTransaction | Kysely<unknown>, after: Checkpoint): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`
    select exists (
      select 1 from ledger.events
       where (tx_id, position) > (${after.txId.toString()}::xid8, ${after.position.toString()}::bigint)
    ) as found`.execute(trx);
  return rows[0]?.found ?? false;
}
