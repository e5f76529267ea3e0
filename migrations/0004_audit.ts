/**
 * Admin and operator tools: the audit trail of admin actions, the record of ledger verify
 * runs, and the progress rows of projection replays run as jobs (schema `audit`). Also lets
 * the history read table hold a reversal's rows next to the original's on the same stream,
 * and indexes the log for the ledger explorer's filters.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
create schema audit;

-- Every admin action (suspend, activate, settle, fail, reverse, replay): who, when, what, why.
-- Append-only by convention; rows are written in the action's transaction where possible.
create table audit.admin_actions (
  id bigint generated always as identity primary key,
  actor_id text not null,
  action text not null check (action in ('suspend', 'activate', 'settle', 'fail', 'reverse', 'replay')),
  target text not null,
  reason text,
  details jsonb not null default '{}'::jsonb,
  recorded_at timestamptz not null default now()
);
create index admin_actions_newest on audit.admin_actions (id desc);
create index admin_actions_by_actor on audit.admin_actions (actor_id, id desc);

-- Each ledger verify run (API or CLI): its result and the trial balance it printed.
create table audit.verify_runs (
  id bigint generated always as identity primary key,
  ran_at timestamptz not null default now(),
  source text not null,
  ok boolean not null,
  differences jsonb not null,
  trial_balance jsonb not null,
  total_paise bigint not null,
  duration_ms integer not null
);

-- Projection replays requested through the API and run by a worker: a row to poll.
create table audit.replay_runs (
  id bigint generated always as identity primary key,
  projection text not null,
  state text not null check (state in ('queued', 'running', 'done', 'failed')),
  requested_by text not null,
  processed bigint not null default 0,
  total bigint not null default 0,
  error text,
  requested_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz
);
create index replay_runs_by_projection on audit.replay_runs (projection, id desc);

-- Ledger explorer: filters by actor and type, paged by position.
create index events_by_actor on ledger.events ((metadata->>'actorId'), position);
create index events_by_type on ledger.events (type, position);
create index events_by_time on ledger.events (recorded_at);

-- Pending deposits review: the few pending rows among all history rows.
create index history_pending_deposits on read.history (position) where status = 'pending' and type = 'deposit';
`.execute(db);

  // A reversal adds rows on the original's stream: one row per (account, stream, event). The
  // key's name is looked up, since a replay swaps in tables whose constraint names are generated.
  await sql`
do $$
declare
  key_name text;
begin
  select conname into key_name from pg_constraint where conrelid = 'read.history'::regclass and contype = 'p';
  execute format('alter table read.history drop constraint %I', key_name);
  alter table read.history add primary key (account_id, stream_id, position);
end $$;
`.execute(db);
}
