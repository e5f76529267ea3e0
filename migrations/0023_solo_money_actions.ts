/**
 * Four eyes over a rolling 24 hours (audit/money-actions.ts). The approval threshold compared
 * one action at a time, so one admin could move any sum alone in pieces just under it (into
 * a wallet of their own making, say). Now an admin's settlement or reversal also waits for a
 * second admin when, with what was done without a second admin in the last 24 hours, it takes
 * the admin's total, or the total credited into the wallet, above the threshold; and a
 * settlement into an account the same admin activated always waits.
 *
 * - `audit.solo_money_actions`: every settlement and reversal an admin ran alone (not through
 *   an approval), written in the action's own transaction: who, what, the wallet it credited
 *   (the deposit's wallet; a reversal's payer or sender; none for a deposit reversal) and the
 *   amount. Append-only, like the rest of `audit` (the runtime may select and insert).
 * - filled at once with the last 24 hours' solo actions, read from the audit trail and the
 *   ledger's events, so the rule holds from the deployment on, not from a day later.
 * - an index for "did this admin activate this account" (audit.admin_actions' activate rows).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
create table audit.solo_money_actions (
  id bigint generated always as identity primary key,
  admin_id text not null,
  action text not null check (action in ('settle', 'reverse')),
  -- The stream the action changed (deposit-<id>, transfer-<id>, request-<id>).
  target text not null,
  -- The wallet the action credited, if any.
  wallet_id text,
  amount_paise bigint not null check (amount_paise > 0),
  recorded_at timestamptz not null default now()
);
create index solo_money_actions_by_admin on audit.solo_money_actions (admin_id, recorded_at);
create index solo_money_actions_by_wallet on audit.solo_money_actions (wallet_id, recorded_at) where wallet_id is not null;

create index admin_actions_activations on audit.admin_actions (target, actor_id) where action = 'activate';

-- The last 24 hours' settlements and reversals run without an approval (an approved one's
-- audit row names its approvalId). A settlement's event is its stream's DepositSettled; a
-- reversal's is at the position its audit row names.
insert into audit.solo_money_actions (admin_id, action, target, wallet_id, amount_paise, recorded_at)
select a.actor_id, a.action, a.target,
       case when e.type = 'DepositSettled' then e.data->>'walletId'
            else (select p.account_id from ledger.postings p
                   join ledger.accounts acc on acc.id = p.account_id and acc.kind = 'wallet'
                  where p.position = e.position and p.amount > 0
                  limit 1) end,
       (e.data->>'amountPaise')::bigint, a.recorded_at
  from audit.admin_actions a
  join ledger.events e
    on e.stream_id = a.target
   and ((a.action = 'settle' and e.type = 'DepositSettled')
     or (a.action = 'reverse' and e.position = (a.details->>'position')::bigint))
 where a.action in ('settle', 'reverse')
   and a.recorded_at > now() - interval '24 hours'
   and not (a.details ? 'approvalId');
`.execute(db);
}
