/**
 * The projector's "anything left?" check (`projector.has_events_after`, 0018) reads the
 * (tx_id, position) index instead of the whole log.
 *
 * It was `exists (select 1 from ledger.events where (tx_id, position) > ($1, $2))` in a SQL
 * function, whose plan is generic: without the checkpoint's value the planner expects a third
 * of the log to match, so a sequential scan "finds a row at once" - but the rows after a
 * checkpoint are the newest, at the end of the heap, and every live batch read the whole log to
 * reach them (2.1 ms at 50,000 events, growing with the log; under B2 it was a quarter of
 * the projector's time). An ORDER BY ... LIMIT 1 inside EXISTS is stripped by the planner,
 * so the check asks for the first key after the checkpoint, which only the index gives cheaply.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
create or replace function projector.has_events_after(p_tx xid8, p_position bigint) returns boolean
language sql stable as $fn$
  select (select e.position from ledger.events e
           where (e.tx_id, e.position) > (p_tx, p_position)
           order by e.tx_id, e.position
           limit 1) is not null
$fn$;
`.execute(db);
}
