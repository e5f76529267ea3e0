/**
 * Safety rails for admins and one-time codes (issue: safe to deploy):
 * - `audit.approval_requests`: money actions of an admin above a configured amount (settling a
 *   deposit, reversing a movement) wait here until a second admin approves them.
 * - `identity.code_issues`: how many one-time codes each address got per purpose and day, so
 *   a cap bounds the guesses a day can buy (each new code brings 5 fresh attempts).
 * - the audit trail's action list gains the approval steps.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
create table audit.approval_requests (
  id text primary key check (id ~ '^[A-Za-z0-9_-]{1,64}$'),
  action text not null check (action in ('settle', 'reverse')),
  -- The stream the action changes (deposit-<id>, transfer-<id>, request-<id>).
  target text not null,
  -- What the action needs to run once approved (deposit id; reversal kind, id and reason).
  input jsonb not null,
  amount_paise bigint not null check (amount_paise > 0),
  requested_by text not null,
  requested_at timestamptz not null default now(),
  state text not null default 'pending' check (state in ('pending', 'approved', 'rejected')),
  decided_by text,
  decided_at timestamptz,
  decision_reason text,
  constraint decided_unless_pending check ((state = 'pending') = (decided_by is null)),
  -- The point of the table: whoever asked cannot be the one who approves.
  constraint approved_by_a_second_admin check (state <> 'approved' or decided_by <> requested_by)
);
-- One open request per stream: a second admin asking for the same thing joins the first.
create unique index approval_requests_one_pending on audit.approval_requests (target) where state = 'pending';
create index approval_requests_newest on audit.approval_requests (requested_at desc, id desc);

create table identity.code_issues (
  email text not null check (email = lower(email)),
  purpose text not null check (purpose in ('password', 'pin')),
  day date not null,
  issued integer not null check (issued > 0),
  primary key (email, purpose, day)
);

alter table audit.admin_actions drop constraint admin_actions_action_check;
alter table audit.admin_actions add constraint admin_actions_action_check
  check (action in ('suspend', 'activate', 'settle', 'fail', 'reverse', 'replay', 'request_approval', 'reject_approval'));
`.execute(db);
}
