/**
 * A projection round with fewer statements (issue 40: the read side's cost). The functions
 * whose arguments or results changed go here, and the definition files
 * (projections/engine/rules.sql, run-batch.sql, projections/<name>/rules.sql) create their new
 * forms after the migrations, in the same run:
 *
 * - each rule (`apply_<name>__live`, `apply_<name>__rebuild`) takes the range's event types
 *   (`p_types`) and skips the statements whose types the range lacks;
 * - `projector.next_range` also gives the range's types, read once for the round's rules;
 * - `projector.save_checkpoint` saves the checkpoints of several projections at once (a round's
 *   projections reach the same checkpoint), one statement instead of one a projection.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
drop function if exists projector.apply_accounts__live(xid8, bigint, xid8, bigint);
drop function if exists projector.apply_accounts__rebuild(xid8, bigint, xid8, bigint);
drop function if exists projector.apply_history__live(xid8, bigint, xid8, bigint);
drop function if exists projector.apply_history__rebuild(xid8, bigint, xid8, bigint);
drop function if exists projector.apply_money_requests__live(xid8, bigint, xid8, bigint);
drop function if exists projector.apply_money_requests__rebuild(xid8, bigint, xid8, bigint);
drop function if exists projector.apply_statement_days__live(xid8, bigint, xid8, bigint);
drop function if exists projector.apply_statement_days__rebuild(xid8, bigint, xid8, bigint);
drop function if exists projector.next_range(xid8, bigint, integer);
drop function if exists projector.save_checkpoint(text, xid8, bigint, bigint, boolean);
`.execute(db);
}
