/**
 * The projectors' view of the log: the next range of events after a checkpoint, in
 * (tx_id, position) order, and only from transactions older than the snapshot xmin.
 *
 * Why both: positions come from a sequence taken before commit, so events commit out of
 * position order. Every transaction with an xid below the xmin of the current snapshot has
 * finished, and every transaction that has not started writing yet will get a larger xid,
 * so the set of events below the xmin only ever grows at its end in (tx_id, position)
 * order: a cursor on that pair never has an event appear behind it. The range (after, to]
 * chosen here is therefore complete and final, and the projections' SQL rules read it
 * again with no gate of their own. The gate itself is SQL (`projector.next_range`,
 * projections/engine/run-batch.sql), shared with the live projector's `projector.run_batch`.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Checkpoint } from './checkpoint.ts';

/** Any transaction will do: projectors run on a view typed with their own tables. */
export type AnyTransaction = Transaction<unknown>;

/** The committed events after `from` up to and including `to`, in read order. */
export interface EventRange {
  from: Checkpoint;
  to: Checkpoint;
  events: number;
}

/** The next up to `limit` events after `after` that the xmin gate lets through; undefined when none. */
export async function nextEventRange(
  trx: AnyTransaction | Kysely<unknown>,
  after: Checkpoint,
  limit: number,
): Promise<EventRange | undefined> {
  const { rows } = await sql<{ tx_id: string; position: bigint; events: number }>`
    select tx_id::text as tx_id, position, events
      from projector.next_range(${after.txId.toString()}::xid8, ${after.position.toString()}::bigint, ${limit}::integer)`.execute(
    trx,
  );
  const last = rows[0];
  if (!last) return undefined;
  return { from: after, to: { txId: BigInt(last.tx_id), position: last.position }, events: last.events };
}

/** Committed events after the checkpoint that the xmin gate still holds back (or not yet read). */
export async function hasEventsAfter(trx: AnyTransaction | Kysely<unknown>, after: Checkpoint): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`
    select projector.has_events_after(${after.txId.toString()}::xid8, ${after.position.toString()}::bigint) as found`.execute(
    trx,
  );
  return rows[0]?.found ?? false;
}
