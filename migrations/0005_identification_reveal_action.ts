/**
 * The audit trail gains the action `reveal_identification`: an admin read a customer's full ID
 * number (issue 41 item 2). Every other reply masks it, so each reading of the whole number is
 * an admin action of its own, with who and when.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
alter table audit.admin_actions drop constraint admin_actions_action_check;
alter table audit.admin_actions add constraint admin_actions_action_check
  check (action in ('suspend', 'activate', 'settle', 'fail', 'reverse', 'replay', 'request_approval',
                    'reject_approval', 'reveal_identification'));
`.execute(db);
}
