/**
 * Who made each event, for the admin explorer's actor filter, moves from an index on the log
 * (`ledger.events_by_actor`, on `metadata->>'actorId'`) to a read table of the history
 * projection (`read.event_actors`). Every append paid for that index: one more B-tree entry per
 * event, keyed by the actor, so on a random leaf of an index that grows with the ledger (a
 * full-page image in the WAL at the first touch after each checkpoint). The projector writes
 * the read table in batches, off the payment's path; the explorer's filter lags like every
 * other read.
 *
 * The table is filled here up to the history projection's checkpoint, so the projection goes
 * on from where it is; a replay of history rebuilds it like its other tables.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
create table read.event_actors (
  actor_id text not null,
  position bigint not null,
  primary key (actor_id, position)
);
insert into replay.projection_tables (projection, table_name) values ('history', 'event_actors');
insert into read.event_actors (actor_id, position)
select e.metadata->>'actorId', e.position
  from ledger.events e, read.checkpoints c
 where c.projection = 'history'
   and e.metadata ? 'actorId'
   and (e.tx_id, e.position) <= (c.tx_id, c.position);
drop index ledger.events_by_actor;
`.execute(db);
}
