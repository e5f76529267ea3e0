/**
 * A live projector batch in one round trip (`projector.run_batch`).
 *
 * Before, a batch was seven statements from Node (BEGIN, lock the checkpoint, find the range,
 * apply it, save the checkpoint, NOTIFY, COMMIT) and the drain loop asked an eighth ("anything
 * left?"). Every command's reply waits for all four projections, so under B2 (~500 payments a
 * second, batches of a few events) the worker sent more statements than the commands did. The
 * steps and their order are unchanged - the lock with SKIP LOCKED, the range behind the xmin
 * gate, the projection's own rule (`apply_<name>`), the checkpoint and its NOTIFY in the same
 * transaction - only they now run server-side in the one implicit transaction of the call.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
create function projector.run_batch(p_projection text, p_limit integer)
returns table (busy boolean, applied integer, tx_id xid8, "position" bigint, more boolean)
language plpgsql as $fn$
declare
  v_from_tx xid8;
  v_from_position bigint;
  v_to_tx xid8;
  v_to_position bigint;
  v_events integer := 0;
begin
  select c.tx_id, c.position into v_from_tx, v_from_position
    from read.checkpoints c where c.projection = p_projection
     for update skip locked;
  if not found then
    -- Another projector holds it (or no such projection: the caller names only known ones).
    return query select true, 0, null::xid8, null::bigint, false;
    return;
  end if;

  -- The next range behind the xmin gate (projections/engine/event-range.ts says why).
  select n.tx_id, n.position, (count(*) over ())::integer
    into v_to_tx, v_to_position, v_events
    from (select e.tx_id, e.position from ledger.events e
           where (e.tx_id, e.position) > (v_from_tx, v_from_position)
             and e.tx_id < pg_snapshot_xmin(pg_current_snapshot())
           order by e.tx_id, e.position
           limit p_limit) n
   order by n.tx_id desc, n.position desc
   limit 1;

  if v_events > 0 then
    execute format('select projector.%I($1, $2, $3, $4, $5)', 'apply_' || p_projection)
      using 'read'::text, v_from_tx, v_from_position, v_to_tx, v_to_position;
    update read.checkpoints
       set tx_id = v_to_tx, position = v_to_position, events_applied = events_applied + v_events,
           updated_at = now(), last_error = null, last_error_at = null
     where projection = p_projection;
    -- Delivered at commit, and only if it commits.
    perform pg_notify('projection_checkpoint', json_build_object(
      'projection', p_projection, 'checkpoint', v_to_tx::text || '.' || v_to_position::text)::text);
  else
    v_events := 0;
    v_to_tx := v_from_tx;
    v_to_position := v_from_position;
  end if;

  -- Committed events after the new checkpoint, held back by the gate or beyond this batch.
  return query select false, v_events, v_to_tx, v_to_position,
    exists (select 1 from ledger.events e where (e.tx_id, e.position) > (v_to_tx, v_to_position));
end
$fn$`.execute(db);
}
