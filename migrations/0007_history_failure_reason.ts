/**
 * A failed deposit's row keeps the admin's reason (issue 41: every outcome said), so a
 * customer who was away when it failed still reads why in their history, not only in the live
 * toast. `read.history.failure_reason` is set by the history projection's rules from the
 * `DepositFailed` event; rows projected before this migration get theirs from the log here
 * (only rows already failed: a failure after the projection's checkpoint is the rule's to apply).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
alter table read.history add column failure_reason text;
update read.history h
   set failure_reason = e.data->>'reason'
  from ledger.events e
 where e.type = 'DepositFailed'
   and e.stream_id = h.stream_id
   and h.type = 'deposit'
   and h.status = 'failed';
`.execute(db);
}
