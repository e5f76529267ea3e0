/**
 * The baseline: every table, index, trigger, role-independent setting and seed row the wallet
 * starts with. Versioned migrations change tables, indexes and data only; the functions live in
 * .sql files beside the code that calls them and are applied after the migrations, in the same
 * transaction (platform/sql-definitions.ts). The two exceptions are applied here first, because
 * objects below are built on them: the ledger's trigger functions (ledger/sql/invariants.sql)
 * and the history search's key function (projections/history/search-keys.sql, an index
 * expression).
 *
 * A database migrated before the baseline existed (its history names the migrations this one
 * replaced) is recognised by platform/migrate.ts and recorded as at the baseline, unchanged.
 * migrations/schema.sql shows what all of this adds up to.
 */
import { readFileSync } from 'node:fs';
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await ledger(db);
  await readModel(db);
  await identity(db);
  await audit(db);
  await sql`
-- Rate-limit counters shared by every API process (api/auth/rate-limit-store.ts): one row per
-- (limit scope, client) and window, incremented by one upsert per counted request. UNLOGGED: a
-- counter is worth nothing after a crash, and every counted request writes a row; an unlogged
-- table writes no WAL for it, so a count costs no WAL flush at commit, nothing is shipped to
-- replicas, and a crash only empties the table (every client starts a fresh window).
-- Fillfactor 50 leaves room on each page so that a count (which changes hits, not an indexed
-- column) is a HOT update; reset_at is indexed so expired rows are swept by range.
create schema ratelimit;
create unlogged table ratelimit.counters (
  key text primary key check (length(key) <= 512),
  hits bigint not null check (hits > 0),
  reset_at timestamptz not null
) with (fillfactor = 50);
create index counters_reset_at on ratelimit.counters (reset_at);
`.execute(db);
  await replay(db);
}

/** A definition file applied ahead of the repeatable step (see the header). */
async function applyDefinition(db: Kysely<unknown>, file: string): Promise<void> {
  await sql.raw(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8')).execute(db);
}

/**
 * The ledger write model: events, their double-entry postings, account heads and idempotency
 * keys, with every invariant the database can hold enforced here (ARCHITECTURE.md, "Invariants").
 */
async function ledger(db: Kysely<unknown>): Promise<void> {
  await sql`
create schema ledger;

-- Account heads. Wallet heads carry the balance and a posting sequence, updated in the same
-- statement as the funds check. Funding accounts (money entering from outside, one per deposit
-- method) may go negative and have no maintained head: locking one row per method would
-- serialise every deposit; their balances come from postings. Fillfactor 50 keeps free room on
-- each page, so a head update stays a HOT update (no index entry) on the same page.
create table ledger.accounts (
  id text primary key check (id ~ '^[A-Za-z0-9_:-]{1,80}$'),
  kind text not null check (kind in ('wallet', 'funding')),
  allow_negative boolean not null,
  balance bigint,
  seq bigint,
  opened_at timestamptz not null default now(),
  constraint head_only_for_wallets check ((kind = 'wallet') = (balance is not null and seq is not null)),
  constraint wallet_never_negative check (allow_negative or balance >= 0),
  constraint wallets_cannot_go_negative check (kind <> 'wallet' or not allow_negative)
) with (fillfactor = 50);

create table ledger.events (
  position bigint generated always as identity primary key,
  tx_id xid8 not null default pg_current_xact_id(),
  stream_id text not null,
  stream_version integer not null check (stream_version >= 0),
  type text not null,
  data jsonb not null,
  metadata jsonb not null default '{}'::jsonb,
  recorded_at timestamptz not null default now(),
  constraint one_event_per_stream_version unique (stream_id, stream_version)
);
-- Projectors read in (tx_id, position) order behind the snapshot xmin.
create index events_tx_order on ledger.events (tx_id, position);
-- The ledger explorer: filters by actor and type, paged by position; its time filter is served
-- by block ranges (recorded_at grows with position, and a BRIN insert costs nothing until a
-- range fills).
create index events_by_actor on ledger.events ((metadata->>'actorId'), position);
create index events_by_type on ledger.events (type, position);
create index events_by_time on ledger.events using brin (recorded_at);

-- No foreign keys: the statement trigger postings_sum_to_zero checks that every line names an
-- existing event and account (ledger/sql/invariants.sql says why). Every query that filters
-- postings by account is served by one_posting_per_account_seq.
create table ledger.postings (
  position bigint not null,
  account_id text not null,
  amount bigint not null check (amount <> 0),
  account_seq bigint,
  balance_after bigint,
  primary key (position, account_id),
  constraint one_posting_per_account_seq unique (account_id, account_seq)
);

-- A repeated command (same actor, same key) returns its first result and appends nothing. Kept
-- for a retention period (ledger.expire_idempotency_keys), found by time through a BRIN index.
create table ledger.idempotency_keys (
  actor_id text not null,
  key text not null check (length(key) between 1 and 200),
  command text not null,
  request_hash text not null,
  result jsonb,
  recorded_at timestamptz not null default now(),
  primary key (actor_id, key)
);
create index idempotency_keys_by_time on ledger.idempotency_keys using brin (recorded_at);

insert into ledger.accounts (id, kind, allow_negative) values
  ('funding:bank_transfer', 'funding', true),
  ('funding:upi', 'funding', true),
  ('funding:card', 'funding', true);
`.execute(db);

  await applyDefinition(db, 'ledger/sql/invariants.sql');
  await sql`
-- History is immutable: corrections are new events, never edits; an account, once opened,
-- stays; every insert statement's postings balance per event.
create trigger events_append_only before update or delete on ledger.events
  for each row execute function ledger.reject_mutation();
create trigger events_no_truncate before truncate on ledger.events
  for each statement execute function ledger.reject_mutation();
create trigger postings_append_only before update or delete on ledger.postings
  for each row execute function ledger.reject_mutation();
create trigger postings_no_truncate before truncate on ledger.postings
  for each statement execute function ledger.reject_mutation();
create trigger postings_sum_to_zero
  after insert on ledger.postings
  referencing new table as inserted
  for each statement execute function ledger.assert_postings_balanced();
create trigger accounts_never_deleted before delete on ledger.accounts
  for each row execute function ledger.reject_account_removal();
create trigger accounts_no_truncate before truncate on ledger.accounts
  for each statement execute function ledger.reject_account_removal();
`.execute(db);
}

/**
 * The read model (CQRS read side): tables written only by the projectors in projections/, read
 * by the API. Everything here can be dropped and rebuilt from the ledger's events
 * (`npm run ledger -- replay`).
 */
async function readModel(db: Kysely<unknown>): Promise<void> {
  await sql`
-- Trusted extensions shipped with PostgreSQL (13+): trigram search and GIN over plain columns.
create extension if not exists pg_trgm;
create extension if not exists btree_gin;

create schema read;

-- One row per projection: how far it has read, as the (tx_id, position) pair of the last event
-- applied. The projector locks this row for each batch (one active projector per projection)
-- and advances it in the batch's transaction (exactly-once effect).
create table read.checkpoints (
  projection text primary key,
  tx_id xid8 not null default '0'::xid8,
  position bigint not null default 0,
  events_applied bigint not null default 0,
  updated_at timestamptz not null default now(),
  last_error text,
  last_error_at timestamptz
);
insert into read.checkpoints (projection) values ('accounts'), ('history'), ('money_requests'), ('statements');

-- Projection "accounts": display names, balances (funding accounts' balances exist only here)
-- and per-account statements.
create table read.directory (
  account_id text primary key,
  display_name text not null,
  kind text not null check (kind in ('wallet', 'funding')),
  opened_at timestamptz not null
);

create table read.balances (
  account_id text primary key,
  balance_paise bigint not null,
  postings_count bigint not null,
  last_position bigint,
  updated_at timestamptz not null
);

create table read.statements (
  account_id text not null,
  position bigint not null,
  tx_id xid8 not null,
  -- The order of the running balance: the ledger's account_seq for wallets (the order of their
  -- row locks), the order of projection for funding accounts.
  sequence bigint not null,
  event_type text not null,
  stream_id text not null,
  transaction_id text not null,
  counterparty_id text,
  counterparty_name text,
  amount_paise bigint not null,
  balance_after_paise bigint not null,
  recorded_at timestamptz not null,
  primary key (account_id, position),
  unique (account_id, sequence)
);
create index statements_by_time on read.statements (account_id, recorded_at);

-- Projection "history": one row per participant of each money movement; a reversal adds rows
-- on the original's stream, so one row per (account, stream, event).
create table read.history (
  account_id text not null,
  stream_id text not null,
  transaction_id text not null,
  type text not null check (type in ('deposit', 'debit', 'credit')),
  sender_id text not null,
  receiver_id text not null,
  counterparty_id text not null,
  counterparty_name text not null,
  amount_paise bigint not null check (amount_paise > 0),
  reference text not null,
  status text not null check (status in ('success', 'pending', 'failed')),
  method text not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  tx_id xid8 not null,
  position bigint not null,
  primary key (account_id, stream_id, position)
);
-- Pages: a page's keys, however deep, come from an index-only scan, and only the page's own
-- rows are fetched (projections/history/queries.ts). The newest-first index also carries the
-- type, the reference and the transaction id, so a search walking it filters index entries
-- and visits the heap only for rows not yet all-visible.
create index history_newest_first on read.history (account_id, created_at desc, position desc)
  include (stream_id, type, reference, transaction_id);
create index history_by_type on read.history (account_id, type, created_at desc, position desc) include (stream_id);
-- Pending deposits review: the few pending rows among all history rows.
create index history_pending_deposits on read.history (position) where status = 'pending' and type = 'deposit';
-- A transaction id is matched from its start, case-insensitively: one entry a row. People
-- paste an id or type its first characters from the table.
create index history_transaction_prefix on read.history (account_id, lower(transaction_id) text_pattern_ops);

-- Per-user history row counts, by type: a page's total is a key lookup.
create table read.history_counts (
  account_id text not null,
  type text not null,
  rows bigint not null check (rows >= 0),
  primary key (account_id, type)
);

-- Projection "money_requests": requests sent and received.
create table read.money_requests (
  request_id text primary key,
  requester_id text not null,
  requester_name text not null,
  payer_id text not null,
  payer_name text not null,
  amount_paise bigint not null,
  reference text not null,
  status text not null check (status in ('pending', 'accepted', 'rejected')),
  created_at timestamptz not null,
  updated_at timestamptz not null,
  position bigint not null
);
create index money_requests_by_requester on read.money_requests (requester_id, created_at desc);
create index money_requests_by_payer on read.money_requests (payer_id, created_at desc);

-- Projection "statements": per wallet and Asia/Kolkata calendar day, money in and out, the
-- closing balance and the number of postings.
create table read.statement_days (
  account_id text not null,
  day date not null,
  money_in_paise bigint not null check (money_in_paise >= 0),
  money_out_paise bigint not null check (money_out_paise >= 0),
  closing_balance_paise bigint not null,
  postings_count bigint not null check (postings_count > 0),
  primary key (account_id, day)
);
`.execute(db);

  await applyDefinition(db, 'projections/history/search-keys.sql');
  await sql`
-- The reference's trigrams keyed by account. The pending list is short (256 kB): merging a row
-- is cheap, and a search reads at most that much of it.
create index history_search_keys on read.history using gin (read.search_keys(account_id, reference))
  with (gin_pending_list_limit = 256);
`.execute(db);
}

/**
 * Identity: users (credentials, role, verification state, transaction-PIN lockout) and e-mailed
 * one-time codes. Plain tables, not event-sourced: a user's wallet lives in the ledger under the
 * same id (the account number), opened in the registering transaction.
 */
async function identity(db: Kysely<unknown>): Promise<void> {
  await sql`
create schema identity;

create table identity.users (
  -- Also the wallet's account number: the spec's clients treat it as a string of letters,
  -- digits, underscore and hyphen.
  id text primary key check (id ~ '^[A-Za-z0-9_-]{1,64}$'),
  email text not null check (email = lower(email) and length(email) between 3 and 254),
  first_name text not null,
  last_name text not null,
  contact_no text,
  identification text check (identification in ('Passport', 'Driver''s License', 'National ID', 'Aadhaar Card', 'PAN Card')),
  identification_number text,
  address text,
  -- argon2id; null for accounts that only sign in through Google.
  password_hash text,
  -- bcrypt (cost >= 10); null means PIN_NOT_SET.
  pin_hash text,
  is_admin boolean not null default false,
  -- false = awaiting verification or suspended: refused at sign-in and on every call.
  is_verified boolean not null default false,
  auth_provider text not null check (auth_provider in ('local', 'google')),
  google_subject text unique,
  failed_pin_attempts integer not null default 0 check (failed_pin_attempts >= 0),
  pin_locked_until timestamptz,
  -- Carried in every token; a password reset bumps it, so older tokens stop working.
  session_version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- PIN checks without bcrypt on the hot path (identity/pin-verifier.ts): a peppered HMAC
  -- verifier and the id of the pepper that made it.
  pin_verifier bytea check (octet_length(pin_verifier) = 32),
  pin_verifier_key text,
  -- The last stage of the escalating lockout: locked until an e-mailed PIN reset.
  pin_reset_required boolean not null default false,
  constraint local_accounts_have_a_password check (auth_provider <> 'local' or password_hash is not null),
  constraint pin_verifier_has_key check ((pin_verifier is null) = (pin_verifier_key is null))
);
-- One account per e-mail, whatever its case (values are stored lower-cased; the index also
-- holds if a writer forgets).
create unique index users_email_unique on identity.users (lower(email));
create index users_admins on identity.users (id) where is_admin;

-- One live code per (e-mail, purpose). Rows also exist for e-mails with no account, so an
-- unknown address behaves exactly like a known one (same answers, same waits).
create table identity.one_time_codes (
  email text not null check (email = lower(email)),
  purpose text not null check (purpose in ('password', 'pin')),
  user_id text references identity.users (id) on delete cascade,
  -- HMAC-SHA256 of the code under a server-side pepper; null once voided.
  code_hash text,
  expires_at timestamptz not null,
  attempts integer not null default 0 check (attempts >= 0),
  verified_at timestamptz,
  last_sent_at timestamptz not null,
  primary key (email, purpose)
);
create index one_time_codes_expiry on identity.one_time_codes (expires_at);

-- How many one-time codes each address got per purpose and day, so a cap bounds the guesses a
-- day can buy (each new code brings fresh attempts).
create table identity.code_issues (
  email text not null check (email = lower(email)),
  purpose text not null check (purpose in ('password', 'pin')),
  day date not null,
  issued integer not null check (issued > 0),
  primary key (email, purpose, day)
);
`.execute(db);
}

/**
 * Admin and operator tools (schema audit): the trail of admin actions, approvals, the record of
 * ledger verify runs and the progress rows of projection replays run as jobs.
 */
async function audit(db: Kysely<unknown>): Promise<void> {
  await sql`
create schema audit;

-- Every admin action: who, when, what, why. Append-only by convention; rows are written in the
-- action's transaction where possible.
create table audit.admin_actions (
  id bigint generated always as identity primary key,
  actor_id text not null,
  action text not null,
  target text not null,
  reason text,
  details jsonb not null default '{}'::jsonb,
  recorded_at timestamptz not null default now(),
  constraint admin_actions_action_check
    check (action in ('suspend', 'activate', 'settle', 'fail', 'reverse', 'replay', 'request_approval', 'reject_approval'))
);
create index admin_actions_newest on audit.admin_actions (id desc);
create index admin_actions_by_actor on audit.admin_actions (actor_id, id desc);
-- "Did this admin activate this account" (audit/money-actions.ts).
create index admin_actions_activations on audit.admin_actions (target, actor_id) where action = 'activate';

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

-- Money actions of an admin above the approval threshold (settling a deposit, reversing a
-- movement) wait here until a second admin approves them.
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

-- Every settlement and reversal an admin ran alone (not through an approval), written in the
-- action's own transaction: who, what, the wallet it credited and the amount. Four eyes over a
-- rolling 24 hours read it (audit/money-actions.ts). Append-only, like the rest of audit.
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
`.execute(db);
}

/**
 * Replay's allow-list: the only tables replay's functions (projections/engine/replay.sql) may
 * create, drop or move - each projection's own read tables. A new projection table needs a
 * row here (projections/engine/replay-privileges.test.ts compares this list with the
 * projections' definitions).
 */
async function replay(db: Kysely<unknown>): Promise<void> {
  await sql`
create schema replay;

create table replay.projection_tables (
  projection text not null check (projection ~ '^[a-z_]{1,40}$'),
  table_name text not null unique check (table_name ~ '^[a-z_]{1,60}$' and table_name <> 'checkpoints'),
  primary key (projection, table_name)
);
insert into replay.projection_tables (projection, table_name) values
  ('accounts', 'directory'), ('accounts', 'balances'), ('accounts', 'statements'),
  ('history', 'history_counts'), ('history', 'history'),
  ('money_requests', 'money_requests'),
  ('statements', 'statement_days');

-- The projector's rules (schema projector) are all functions: projections/*/rules.sql.
create schema projector;
`.execute(db);
}
