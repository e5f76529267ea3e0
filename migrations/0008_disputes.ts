/**
 * Disputes of payments (issue 43 item 3): `audit.disputes`, the admins' queue of them, written
 * by admin-actions/disputes.ts in the transaction that appends the dispute's ledger event
 * (DisputeRaised, DisputeRejected) or the reversal that resolves it, the way
 * `audit.approval_requests` is kept beside the approvals. The ledger's events are the record;
 * this table is what the queue filters and pages on. At most one open dispute per payment.
 * The audit trail gains the action `reject_dispute` (a reversal is recorded as `reverse`).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
create table audit.disputes (
  id text primary key,
  stream_id text not null,
  kind text not null check (kind in ('transfer', 'request')),
  transaction_id text not null,
  payer_id text not null,
  payee_id text not null,
  amount_paise bigint not null check (amount_paise > 0),
  reason text not null,
  status text not null default 'open' check (status in ('open', 'rejected', 'reversed')),
  raised_at timestamptz not null default now(),
  decided_by text,
  decided_at timestamptz,
  decision_reason text
);
create unique index disputes_one_open on audit.disputes (stream_id) where status = 'open';
create index disputes_queue on audit.disputes (status, raised_at desc, id desc);
create index disputes_newest on audit.disputes (raised_at desc, id desc);
create index disputes_by_transaction on audit.disputes (transaction_id);

alter table audit.admin_actions drop constraint admin_actions_action_check;
alter table audit.admin_actions add constraint admin_actions_action_check
  check (action in ('suspend', 'activate', 'settle', 'fail', 'reverse', 'replay', 'request_approval',
                    'reject_approval', 'reveal_identification', 'reject_dispute'));
`.execute(db);
}
