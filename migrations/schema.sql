-- The schema of a freshly migrated database (PostgreSQL 18): every versioned migration,
-- then the SQL definition files each domain lists. Written by `npm run schema:dump`
-- (bin/schema-dump.ts, platform/schema-dump.ts); do not edit by hand. A change to a migration
-- or to one of those files shows here, and test/schema-file.test.ts fails until this is rewritten.

create extension btree_gin with schema public;
create extension pg_trgm with schema public;
create schema audit;
create schema identity;
create schema ledger;
create schema projector;
create schema ratelimit;
create schema read;
create schema replay;

create table audit.admin_actions (
  id bigint generated always as identity not null,
  actor_id text not null,
  action text not null,
  target text not null,
  reason text,
  details jsonb default '{}'::jsonb not null,
  recorded_at timestamp with time zone default now() not null,
  constraint admin_actions_action_check CHECK ((action = ANY (ARRAY['suspend'::text, 'activate'::text, 'settle'::text, 'fail'::text, 'reverse'::text, 'replay'::text, 'request_approval'::text, 'reject_approval'::text, 'reveal_identification'::text, 'reject_dispute'::text]))),
  constraint admin_actions_pkey PRIMARY KEY (id)
);

create table audit.approval_requests (
  id text not null,
  action text not null,
  target text not null,
  input jsonb not null,
  amount_paise bigint not null,
  requested_by text not null,
  requested_at timestamp with time zone default now() not null,
  state text default 'pending'::text not null,
  decided_by text,
  decided_at timestamp with time zone,
  decision_reason text,
  constraint approval_requests_action_check CHECK ((action = ANY (ARRAY['settle'::text, 'reverse'::text]))),
  constraint approval_requests_amount_paise_check CHECK ((amount_paise > 0)),
  constraint approval_requests_id_check CHECK ((id ~ '^[A-Za-z0-9_-]{1,64}$'::text)),
  constraint approval_requests_pkey PRIMARY KEY (id),
  constraint approval_requests_state_check CHECK ((state = ANY (ARRAY['pending'::text, 'approved'::text, 'rejected'::text]))),
  constraint approved_by_a_second_admin CHECK (((state <> 'approved'::text) OR (decided_by <> requested_by))),
  constraint decided_unless_pending CHECK (((state = 'pending'::text) = (decided_by IS NULL)))
);

create table audit.disputes (
  id text not null,
  stream_id text not null,
  kind text not null,
  transaction_id text not null,
  payer_id text not null,
  payee_id text not null,
  amount_paise bigint not null,
  reason text not null,
  status text default 'open'::text not null,
  raised_at timestamp with time zone default now() not null,
  decided_by text,
  decided_at timestamp with time zone,
  decision_reason text,
  constraint disputes_amount_paise_check CHECK ((amount_paise > 0)),
  constraint disputes_kind_check CHECK ((kind = ANY (ARRAY['transfer'::text, 'request'::text]))),
  constraint disputes_pkey PRIMARY KEY (id),
  constraint disputes_status_check CHECK ((status = ANY (ARRAY['open'::text, 'rejected'::text, 'reversed'::text])))
);

create table audit.replay_runs (
  id bigint generated always as identity not null,
  projection text not null,
  state text not null,
  requested_by text not null,
  processed bigint default 0 not null,
  total bigint default 0 not null,
  error text,
  requested_at timestamp with time zone default now() not null,
  started_at timestamp with time zone,
  finished_at timestamp with time zone,
  constraint replay_runs_pkey PRIMARY KEY (id),
  constraint replay_runs_state_check CHECK ((state = ANY (ARRAY['queued'::text, 'running'::text, 'done'::text, 'failed'::text])))
);

create table audit.solo_money_actions (
  id bigint generated always as identity not null,
  admin_id text not null,
  action text not null,
  target text not null,
  wallet_id text,
  amount_paise bigint not null,
  recorded_at timestamp with time zone default now() not null,
  constraint solo_money_actions_action_check CHECK ((action = ANY (ARRAY['settle'::text, 'reverse'::text]))),
  constraint solo_money_actions_amount_paise_check CHECK ((amount_paise > 0)),
  constraint solo_money_actions_pkey PRIMARY KEY (id)
);

create table audit.verify_runs (
  id bigint generated always as identity not null,
  ran_at timestamp with time zone default now() not null,
  source text not null,
  ok boolean not null,
  differences jsonb not null,
  trial_balance jsonb not null,
  total_paise bigint not null,
  duration_ms integer not null,
  constraint verify_runs_pkey PRIMARY KEY (id)
);

create table identity.code_issues (
  email text not null,
  purpose text not null,
  day date not null,
  issued integer not null,
  constraint code_issues_email_check CHECK ((email = lower(email))),
  constraint code_issues_issued_check CHECK ((issued > 0)),
  constraint code_issues_pkey PRIMARY KEY (email, purpose, day),
  constraint code_issues_purpose_check CHECK ((purpose = ANY (ARRAY['password'::text, 'pin'::text])))
);

create table identity.one_time_codes (
  email text not null,
  purpose text not null,
  user_id text,
  code_hash text,
  expires_at timestamp with time zone not null,
  attempts integer default 0 not null,
  verified_at timestamp with time zone,
  last_sent_at timestamp with time zone not null,
  constraint one_time_codes_attempts_check CHECK ((attempts >= 0)),
  constraint one_time_codes_email_check CHECK ((email = lower(email))),
  constraint one_time_codes_pkey PRIMARY KEY (email, purpose),
  constraint one_time_codes_purpose_check CHECK ((purpose = ANY (ARRAY['password'::text, 'pin'::text]))),
  constraint one_time_codes_user_id_fkey FOREIGN KEY (user_id) REFERENCES identity.users(id) ON DELETE CASCADE
);

create table identity.users (
  id text not null,
  email text not null,
  first_name text not null,
  last_name text not null,
  contact_no text,
  identification text,
  identification_number text,
  address text,
  password_hash text,
  pin_hash text,
  is_admin boolean default false not null,
  is_verified boolean default false not null,
  auth_provider text not null,
  google_subject text,
  failed_pin_attempts integer default 0 not null,
  pin_locked_until timestamp with time zone,
  session_version integer default 1 not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  pin_verifier bytea,
  pin_verifier_key text,
  pin_reset_required boolean default false not null,
  handle text,
  constraint local_accounts_have_a_password CHECK (((auth_provider <> 'local'::text) OR (password_hash IS NOT NULL))),
  constraint pin_verifier_has_key CHECK (((pin_verifier IS NULL) = (pin_verifier_key IS NULL))),
  constraint users_auth_provider_check CHECK ((auth_provider = ANY (ARRAY['local'::text, 'google'::text]))),
  constraint users_email_check CHECK (((email = lower(email)) AND ((length(email) >= 3) AND (length(email) <= 254)))),
  constraint users_failed_pin_attempts_check CHECK ((failed_pin_attempts >= 0)),
  constraint users_google_subject_key UNIQUE (google_subject),
  constraint users_handle_check CHECK ((handle ~ '^[a-z0-9][a-z0-9._]{2,19}@wallet$'::text)),
  constraint users_id_check CHECK ((id ~ '^[A-Za-z0-9_-]{1,64}$'::text)),
  constraint users_identification_check CHECK ((identification = ANY (ARRAY['Passport'::text, 'Driver''s License'::text, 'National ID'::text, 'Aadhaar Card'::text, 'PAN Card'::text]))),
  constraint users_pin_verifier_check CHECK ((octet_length(pin_verifier) = 32)),
  constraint users_pkey PRIMARY KEY (id)
);

create table ledger.accounts (
  id text not null,
  kind text not null,
  allow_negative boolean not null,
  balance bigint,
  seq bigint,
  opened_at timestamp with time zone default now() not null,
  constraint accounts_id_check CHECK (((id ~ '^[A-Za-z0-9_:-]+$'::text) AND (length(id) <= 80))),
  constraint accounts_kind_check CHECK ((kind = ANY (ARRAY['wallet'::text, 'funding'::text]))),
  constraint accounts_pkey PRIMARY KEY (id),
  constraint head_only_for_wallets CHECK (((kind = 'wallet'::text) = ((balance IS NOT NULL) AND (seq IS NOT NULL)))),
  constraint wallet_never_negative CHECK ((allow_negative OR (balance >= 0))),
  constraint wallets_cannot_go_negative CHECK (((kind <> 'wallet'::text) OR (NOT allow_negative)))
) with (fillfactor=50);

create table ledger.events (
  "position" bigint generated always as identity not null,
  tx_id xid8 default pg_current_xact_id() not null,
  stream_id text not null,
  stream_version integer not null,
  type text not null,
  data jsonb not null,
  metadata jsonb default '{}'::jsonb not null,
  recorded_at timestamp with time zone default now() not null,
  constraint events_pkey PRIMARY KEY ("position"),
  constraint events_stream_version_check CHECK ((stream_version >= 0)),
  constraint one_event_per_stream_version UNIQUE (stream_id, stream_version)
);
alter table ledger.events alter column data set statistics 0;
alter table ledger.events alter column metadata set statistics 0;

create table ledger.idempotency_keys (
  actor_id text not null,
  key text not null,
  command text not null,
  request_hash bytea not null,
  result jsonb,
  recorded_at timestamp with time zone default now() not null,
  constraint idempotency_keys_key_check CHECK (((length(key) >= 1) AND (length(key) <= 200))),
  constraint idempotency_keys_request_hash_check CHECK ((octet_length(request_hash) = 32))
);

create table ledger.postings (
  "position" bigint not null,
  account_id text not null,
  amount bigint not null,
  account_seq bigint,
  balance_after bigint,
  constraint one_posting_per_account_seq UNIQUE (account_id, account_seq),
  constraint postings_amount_check CHECK ((amount <> 0)),
  constraint postings_pkey PRIMARY KEY ("position", account_id)
);

create unlogged table ratelimit.counters (
  key text not null,
  hits bigint not null,
  reset_at timestamp with time zone not null,
  constraint counters_hits_check CHECK ((hits > 0)),
  constraint counters_key_check CHECK ((length(key) <= 512)),
  constraint counters_pkey PRIMARY KEY (key)
) with (fillfactor=50);

create table read.balances (
  account_id text not null,
  balance_paise bigint not null,
  postings_count bigint not null,
  last_position bigint,
  updated_at timestamp with time zone not null,
  constraint balances_pkey PRIMARY KEY (account_id)
);

create table read.checkpoints (
  projection text not null,
  tx_id xid8 default '0'::xid8 not null,
  "position" bigint default 0 not null,
  events_applied bigint default 0 not null,
  updated_at timestamp with time zone default now() not null,
  last_error text,
  last_error_at timestamp with time zone,
  constraint checkpoints_pkey PRIMARY KEY (projection)
);

create table read.directory (
  account_id text not null,
  display_name text not null,
  kind text not null,
  opened_at timestamp with time zone not null,
  constraint directory_kind_check CHECK ((kind = ANY (ARRAY['wallet'::text, 'funding'::text]))),
  constraint directory_pkey PRIMARY KEY (account_id)
);

create table read.event_actors (
  actor_id text not null,
  "position" bigint not null,
  constraint event_actors_pkey PRIMARY KEY (actor_id, "position")
);

create table read.history (
  account_id text not null,
  stream_id text not null,
  transaction_id text not null,
  type text not null,
  sender_id text not null,
  receiver_id text not null,
  counterparty_id text not null,
  counterparty_name text not null,
  amount_paise bigint not null,
  reference text not null,
  status text not null,
  method text not null,
  created_at timestamp with time zone not null,
  updated_at timestamp with time zone not null,
  tx_id xid8 not null,
  "position" bigint not null,
  failure_reason text,
  keyed boolean default false not null,
  constraint history_amount_paise_check CHECK ((amount_paise > 0)),
  constraint history_pkey PRIMARY KEY (account_id, stream_id, "position"),
  constraint history_status_check CHECK ((status = ANY (ARRAY['success'::text, 'pending'::text, 'failed'::text]))),
  constraint history_type_check CHECK ((type = ANY (ARRAY['deposit'::text, 'debit'::text, 'credit'::text])))
);
alter table read.history alter column sender_id set statistics 0;
alter table read.history alter column receiver_id set statistics 0;
alter table read.history alter column counterparty_name set statistics 0;
alter table read.history alter column amount_paise set statistics 0;
alter table read.history alter column reference set statistics 0;
alter table read.history alter column updated_at set statistics 0;
alter table read.history alter column tx_id set statistics 0;
alter table read.history alter column failure_reason set statistics 0;

create table read.history_counts (
  account_id text not null,
  type text not null,
  rows bigint not null,
  constraint history_counts_pkey PRIMARY KEY (account_id, type),
  constraint history_counts_rows_check CHECK ((rows >= 0))
);

create table read.history_keying (
  account_id text not null,
  constraint history_keying_pkey PRIMARY KEY (account_id)
);

create table read.money_requests (
  request_id text not null,
  requester_id text not null,
  requester_name text not null,
  payer_id text not null,
  payer_name text not null,
  amount_paise bigint not null,
  reference text not null,
  status text not null,
  created_at timestamp with time zone not null,
  updated_at timestamp with time zone not null,
  "position" bigint not null,
  constraint money_requests_pkey PRIMARY KEY (request_id),
  constraint money_requests_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'accepted'::text, 'rejected'::text])))
);

create table read.statement_days (
  account_id text not null,
  day date not null,
  money_in_paise bigint not null,
  money_out_paise bigint not null,
  closing_balance_paise bigint not null,
  postings_count bigint not null,
  constraint statement_days_money_in_paise_check CHECK ((money_in_paise >= 0)),
  constraint statement_days_money_out_paise_check CHECK ((money_out_paise >= 0)),
  constraint statement_days_pkey PRIMARY KEY (account_id, day),
  constraint statement_days_postings_count_check CHECK ((postings_count > 0))
);

create table read.statement_lines (
  account_id text not null,
  "position" bigint not null,
  tx_id xid8 not null,
  sequence bigint not null,
  event_type text not null,
  stream_id text not null,
  transaction_id text not null,
  counterparty_id text,
  counterparty_name text,
  amount_paise bigint not null,
  balance_after_paise bigint not null,
  recorded_at timestamp with time zone not null,
  constraint statement_lines_pkey PRIMARY KEY (account_id, sequence)
);
alter table read.statement_lines alter column tx_id set statistics 0;
alter table read.statement_lines alter column transaction_id set statistics 0;
alter table read.statement_lines alter column counterparty_id set statistics 0;
alter table read.statement_lines alter column counterparty_name set statistics 0;
alter table read.statement_lines alter column balance_after_paise set statistics 0;

create table replay.projection_tables (
  projection text not null,
  table_name text not null,
  constraint projection_tables_pkey PRIMARY KEY (projection, table_name),
  constraint projection_tables_projection_check CHECK ((projection ~ '^[a-z_]{1,40}$'::text)),
  constraint projection_tables_table_name_check CHECK (((table_name ~ '^[a-z_]{1,60}$'::text) AND (table_name <> 'checkpoints'::text))),
  constraint projection_tables_table_name_key UNIQUE (table_name)
);

CREATE INDEX admin_actions_activations ON audit.admin_actions USING btree (target, actor_id) WHERE (action = 'activate'::text);
CREATE INDEX admin_actions_by_actor ON audit.admin_actions USING btree (actor_id, id DESC);
CREATE INDEX admin_actions_newest ON audit.admin_actions USING btree (id DESC);
CREATE INDEX approval_requests_newest ON audit.approval_requests USING btree (requested_at DESC, id DESC);
CREATE UNIQUE INDEX approval_requests_one_pending ON audit.approval_requests USING btree (target) WHERE (state = 'pending'::text);
CREATE INDEX disputes_by_transaction ON audit.disputes USING btree (transaction_id);
CREATE INDEX disputes_newest ON audit.disputes USING btree (raised_at DESC, id DESC);
CREATE UNIQUE INDEX disputes_one_open ON audit.disputes USING btree (stream_id) WHERE (status = 'open'::text);
CREATE INDEX disputes_queue ON audit.disputes USING btree (status, raised_at DESC, id DESC);
CREATE INDEX replay_runs_by_projection ON audit.replay_runs USING btree (projection, id DESC);
CREATE INDEX solo_money_actions_by_admin ON audit.solo_money_actions USING btree (admin_id, recorded_at);
CREATE INDEX solo_money_actions_by_wallet ON audit.solo_money_actions USING btree (wallet_id, recorded_at) WHERE (wallet_id IS NOT NULL);
CREATE INDEX one_time_codes_expiry ON identity.one_time_codes USING btree (expires_at);
CREATE INDEX users_admins ON identity.users USING btree (id) WHERE is_admin;
CREATE UNIQUE INDEX users_email_unique ON identity.users USING btree (lower(email));
CREATE UNIQUE INDEX users_handle_key ON identity.users USING btree (handle) WHERE (handle IS NOT NULL);
CREATE INDEX users_mobile_key ON identity.users USING btree ("right"(regexp_replace(contact_no, '[^0-9]'::text, ''::text, 'g'::text), 10)) WHERE (contact_no IS NOT NULL);
CREATE INDEX events_by_time ON ledger.events USING brin (recorded_at);
CREATE INDEX events_by_type ON ledger.events USING btree (type, "position") WHERE (type <> 'TransferCompleted'::text);
CREATE INDEX events_tx_order ON ledger.events USING btree (tx_id, "position");
CREATE UNIQUE INDEX idempotency_keys_by_digest ON ledger.idempotency_keys USING btree (ledger.idempotency_digest(actor_id, key));
CREATE INDEX idempotency_keys_by_time ON ledger.idempotency_keys USING brin (recorded_at);
CREATE INDEX counters_reset_at ON ratelimit.counters USING btree (reset_at);
CREATE INDEX history_by_type ON read.history USING btree (account_id, type, created_at DESC, "position" DESC) INCLUDE (stream_id) WHERE keyed;
CREATE INDEX history_newest_first ON read.history USING btree (account_id, created_at DESC, "position" DESC) INCLUDE (stream_id, type, reference, transaction_id, counterparty_name, amount_paise);
CREATE INDEX history_pending_deposits ON read.history USING btree ("position") WHERE ((status = 'pending'::text) AND (type = 'deposit'::text));
CREATE INDEX history_search_keys ON read.history USING gin (read.history_search_keys(account_id, reference, counterparty_name, amount_paise)) WITH (fastupdate=off) WHERE keyed;
alter index read.history_search_keys alter column 1 set statistics 0;
CREATE INDEX history_transaction_prefix ON read.history USING btree (account_id, lower(transaction_id) text_pattern_ops) WHERE keyed;
CREATE INDEX history_transaction_tail ON read.history USING btree (account_id, reverse(lower(transaction_id)) text_pattern_ops) WHERE keyed;
CREATE INDEX money_requests_by_payer ON read.money_requests USING btree (payer_id, created_at DESC);
CREATE INDEX money_requests_by_requester ON read.money_requests USING btree (requester_id, created_at DESC);
CREATE INDEX statement_lines_by_time ON read.statement_lines USING btree (account_id, recorded_at) WHERE (sequence > 2000);

CREATE TRIGGER accounts_never_deleted BEFORE DELETE ON ledger.accounts FOR EACH ROW EXECUTE FUNCTION ledger.reject_account_removal();
CREATE TRIGGER accounts_no_truncate BEFORE TRUNCATE ON ledger.accounts FOR EACH STATEMENT EXECUTE FUNCTION ledger.reject_account_removal();
CREATE TRIGGER events_append_only BEFORE DELETE OR UPDATE ON ledger.events FOR EACH ROW EXECUTE FUNCTION ledger.reject_mutation();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON ledger.events FOR EACH STATEMENT EXECUTE FUNCTION ledger.reject_mutation();
CREATE TRIGGER postings_append_only BEFORE DELETE OR UPDATE ON ledger.postings FOR EACH ROW EXECUTE FUNCTION ledger.reject_mutation();
CREATE TRIGGER postings_no_truncate BEFORE TRUNCATE ON ledger.postings FOR EACH STATEMENT EXECUTE FUNCTION ledger.reject_mutation();
CREATE TRIGGER postings_sum_to_zero AFTER INSERT ON ledger.postings REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION ledger.assert_postings_balanced();

CREATE OR REPLACE FUNCTION ledger.append(p_stream_id text, p_expected_version integer, p_events jsonb, p_metadata jsonb, p_idempotency jsonb, p_result jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
declare
  v_outcome jsonb;
begin
  v_outcome := ledger.append_batch(jsonb_build_array(jsonb_build_object(
    'stream', p_stream_id,
    'expected', p_expected_version,
    'events', p_events,
    'metadata', coalesce(p_metadata, '{}'::jsonb),
    'idempotency', p_idempotency,
    'result', coalesce(p_result, '{}'::jsonb)
  )))->0;
  if not (v_outcome->>'ok')::boolean then
    raise exception using errcode = v_outcome->>'code', message = v_outcome->>'message';
  end if;
  return v_outcome->'result';
end
$function$;

CREATE OR REPLACE FUNCTION ledger.append_batch(p_appends jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET enable_seqscan TO 'off'
AS $function$
declare
  v_count integer := jsonb_array_length(p_appends);
  -- Wallet heads in memory, by id.
  v_ids text[];
  v_balances bigint[];
  v_seqs bigint[];
  v_start_seqs bigint[];
  v_funding text[];
  v_keys jsonb;
  v_versions jsonb;
  v_outcomes jsonb[] := array_fill(null::jsonb, array[v_count]);
  -- What the accepted commands insert, as parallel arrays (PL/pgSQL appends to arrays in
  -- place; jsonb would be copied on every append).
  e_stream text[] := '{}';
  e_version integer[] := '{}';
  e_type text[] := '{}';
  e_data jsonb[] := '{}';
  e_metadata jsonb[] := '{}';
  p_event integer[] := '{}';
  p_account text[] := '{}';
  p_amount bigint[] := '{}';
  p_seq bigint[] := '{}';
  p_balance bigint[] := '{}';
  c_index integer[] := '{}';
  c_first_event integer[] := '{}';
  c_events integer[] := '{}';
  v_positions bigint[];
  v_tx_id xid8;
  v_append jsonb;
  v_idempotency jsonb;
  v_key text;
  v_current integer;
  v_events jsonb;
  v_event jsonb;
  v_lines integer;
  v_first integer;
  v_accounts text[];
  v_amounts bigint[];
  v_account text;
  v_amount bigint;
  v_slot integer;
  v_failure jsonb;
  v_saved_balances bigint[];
  v_saved_seqs bigint[];
  v_saved_events integer;
  v_saved_postings integer;
  v_result jsonb;
  v_command_positions jsonb;
  v_index integer;
  v_named text[];
  v_streams text[];
  k_actor text[] := '{}';
  k_key text[] := '{}';
  k_command text[] := '{}';
  k_hash text[] := '{}';
  k_result jsonb[] := '{}';
begin
  -- Every account and stream the batch names, as arrays: the lookups below then go through
  -- the primary and unique indexes ("= any(array)"), whatever the planner guesses of jsonb
  -- (a join on the expanded jsonb was planned as a sequential scan of the whole log).
  v_named := array(select distinct p->>'account'
                     from jsonb_array_elements(p_appends) x,
                          jsonb_array_elements(x->'events') e,
                          jsonb_array_elements(coalesce(e->'postings', '[]'::jsonb)) p);
  v_streams := array(select distinct x->>'stream' from jsonb_array_elements(p_appends) x);

  -- The wallets of every posting, locked and then read once; funding accounts have no head
  -- and take no lock. The lock is a transaction-scoped advisory lock per wallet, not FOR
  -- UPDATE: a row lock writes a WAL record for every wallet of every batch (107 of a
  -- transfer's 2,349 bytes), an advisory lock none. Only this function writes a head, so every
  -- writer takes the same locks, in the order of their keys, so concurrent batches queue and
  -- never deadlock (the two-key form in a class of its own, 1463897164 = 'WALL' in ASCII:
  -- pg-boss's one-key locks are another space; two wallets whose ids hash alike share a lock
  -- and only queue). The read after them is a statement of its own, so its snapshot sees every
  -- batch that held them before; `unique (account_id, account_seq)` fails a batch whole if a
  -- head was ever read without its lock (two batches would post the same next sequence).
  perform pg_advisory_xact_lock(1463897164, w.key)
     from (select distinct hashtext(a.id) as key from ledger.accounts a
            where a.id = any(v_named) and a.kind = 'wallet' order by 1) w;
  select coalesce(array_agg(a.id order by a.id), '{}'), coalesce(array_agg(a.balance order by a.id), '{}'), coalesce(array_agg(a.seq order by a.id), '{}')
    into v_ids, v_balances, v_seqs
    from ledger.accounts a
   where a.id = any(v_named) and a.kind = 'wallet';
  v_start_seqs := v_seqs;
  select coalesce(array_agg(a.id), '{}') into v_funding
    from ledger.accounts a
   where a.id = any(v_named) and a.kind <> 'wallet';

  -- Each key found by its digest (one descent of idempotency_keys_by_digest), then matched on
  -- actor and key themselves.
  select coalesce(jsonb_object_agg(k.actor_id || chr(10) || k.key, jsonb_build_object('hash', encode(k.request_hash, 'hex'), 'result', ledger.recorded_result(k.result))), '{}')
    into v_keys
    from (select distinct x->'idempotency'->>'actor' as actor, x->'idempotency'->>'key' as key
            from jsonb_array_elements(p_appends) x
           where jsonb_typeof(x->'idempotency') = 'object') q
    join ledger.idempotency_keys k
      on ledger.idempotency_digest(k.actor_id, k.key) = ledger.idempotency_digest(q.actor, q.key)
     and k.actor_id = q.actor and k.key = q.key;

  -- Each stream's current version: one backward step of the (stream_id, stream_version) index.
  select coalesce(jsonb_object_agg(s.stream_id, s.version), '{}') into v_versions
    from (select named.stream_id,
                 (select e.stream_version from ledger.events e where e.stream_id = named.stream_id
                   order by e.stream_version desc limit 1) as version
            from unnest(v_streams) as named(stream_id)) s
   where s.version is not null;

  for v_index in 0 .. v_count - 1 loop
    v_append := p_appends->v_index;
    v_idempotency := case when jsonb_typeof(v_append->'idempotency') = 'object' then v_append->'idempotency' end;
    if v_idempotency is not null then
      v_key := (v_idempotency->>'actor') || chr(10) || (v_idempotency->>'key');
      if v_keys ? v_key then
        if v_keys->v_key->>'hash' <> v_idempotency->>'hash' then
          v_outcomes[v_index + 1] := jsonb_build_object('ok', false, 'code', 'WL004', 'message', format('idempotency key %s was used for another request', v_idempotency->>'key'));
        elsif v_keys->v_key ? 'twinOf' then
          v_outcomes[v_index + 1] := jsonb_build_object('ok', true, 'twinOf', v_keys->v_key->'twinOf');
        elsif jsonb_typeof(v_keys->v_key->'result') = 'object' then
          v_outcomes[v_index + 1] := jsonb_build_object('ok', true, 'result', (v_keys->v_key->'result') || jsonb_build_object('replayed', true));
        else
          v_outcomes[v_index + 1] := jsonb_build_object('ok', false, 'code', 'WL004', 'message', format('idempotency key %s was used for another request', v_idempotency->>'key'));
        end if;
        continue;
      end if;
    end if;

    v_current := coalesce((v_versions->>(v_append->>'stream'))::integer, -1);
    if v_current <> (v_append->>'expected')::integer then
      v_outcomes[v_index + 1] := jsonb_build_object('ok', false, 'code', 'WL003', 'message', format('stream %s is not at version %s', v_append->>'stream', v_append->>'expected'));
      continue;
    end if;

    -- Apply the command's postings to the heads in memory; undo them if any line is refused.
    v_saved_balances := v_balances;
    v_saved_seqs := v_seqs;
    v_saved_events := cardinality(e_stream);
    v_saved_postings := cardinality(p_account);
    v_failure := null;
    v_events := v_append->'events';
    for v_event_index in 0 .. jsonb_array_length(v_events) - 1 loop
      v_event := v_events->v_event_index;
      e_stream := e_stream || (v_append->>'stream');
      e_version := e_version || (v_current + 1 + v_event_index);
      e_type := e_type || (v_event->>'type');
      e_data := e_data || (v_event->'data');
      e_metadata := e_metadata || coalesce(v_append->'metadata', '{}'::jsonb);
      v_lines := coalesce(jsonb_array_length(v_event->'postings'), 0);
      continue when v_lines = 0;
      if v_lines = 2 then
        -- The common case, in account order by plain expressions (no query started).
        v_first := case when v_event->'postings'->0->>'account' <= v_event->'postings'->1->>'account' then 0 else 1 end;
        v_accounts := array[v_event->'postings'->v_first->>'account', v_event->'postings'->(1 - v_first)->>'account'];
        v_amounts := array[(v_event->'postings'->v_first->>'amount')::bigint, (v_event->'postings'->(1 - v_first)->>'amount')::bigint];
      else
        select array_agg(value->>'account' order by value->>'account'), array_agg((value->>'amount')::bigint order by value->>'account')
          into v_accounts, v_amounts
          from jsonb_array_elements(v_event->'postings');
      end if;
      for v_line in 1 .. v_lines loop
        v_account := v_accounts[v_line];
        v_amount := v_amounts[v_line];
        v_slot := array_position(v_ids, v_account);
        if v_slot is null then
          if not (v_account = any(v_funding)) then
            v_failure := jsonb_build_object('ok', false, 'code', 'WL002', 'message', format('unknown account %s', v_account));
            exit;
          end if;
          p_seq := p_seq || null::bigint;
          p_balance := p_balance || null::bigint;
        else
          if v_balances[v_slot] + v_amount < 0 then
            v_failure := jsonb_build_object('ok', false, 'code', 'WL001', 'message', format('insufficient funds in %s', v_account));
            exit;
          end if;
          v_balances[v_slot] := v_balances[v_slot] + v_amount;
          v_seqs[v_slot] := v_seqs[v_slot] + 1;
          p_seq := p_seq || v_seqs[v_slot];
          p_balance := p_balance || v_balances[v_slot];
        end if;
        p_event := p_event || cardinality(e_stream);
        p_account := p_account || v_account;
        p_amount := p_amount || v_amount;
      end loop;
      exit when v_failure is not null;
    end loop;
    if v_failure is not null then
      v_balances := v_saved_balances;
      v_seqs := v_saved_seqs;
      e_stream := e_stream[1:v_saved_events];
      e_version := e_version[1:v_saved_events];
      e_type := e_type[1:v_saved_events];
      e_data := e_data[1:v_saved_events];
      e_metadata := e_metadata[1:v_saved_events];
      p_event := p_event[1:v_saved_postings];
      p_account := p_account[1:v_saved_postings];
      p_amount := p_amount[1:v_saved_postings];
      p_seq := p_seq[1:v_saved_postings];
      p_balance := p_balance[1:v_saved_postings];
      v_outcomes[v_index + 1] := v_failure;
      continue;
    end if;

    v_versions := v_versions || jsonb_build_object(v_append->>'stream', v_current + jsonb_array_length(v_events));
    if v_idempotency is not null then
      v_keys := v_keys || jsonb_build_object(v_key, jsonb_build_object('hash', v_idempotency->>'hash', 'twinOf', v_index));
    end if;
    c_index := c_index || v_index;
    c_first_event := c_first_event || (v_saved_events + 1);
    c_events := c_events || jsonb_array_length(v_events);
  end loop;

  if cardinality(c_index) > 0 then
    -- Events in batch order (positions come from the identity sequence), read back in the
    -- same order by their stream and version.
    with inserted as (
      insert into ledger.events (stream_id, stream_version, type, data, metadata)
      select stream_id, stream_version, type, data, metadata
        from unnest(e_stream, e_version, e_type, e_data, e_metadata) with ordinality as e(stream_id, stream_version, type, data, metadata, ord)
       order by ord
      returning position, tx_id, stream_id, stream_version
    )
    select array_agg(inserted.position order by e.ord), max(inserted.tx_id)
      into v_positions, v_tx_id
      from unnest(e_stream, e_version) with ordinality as e(stream_id, stream_version, ord)
      join inserted using (stream_id, stream_version);

    insert into ledger.postings (position, account_id, amount, account_seq, balance_after)
    select v_positions[event], account, amount, seq, balance
      from unnest(p_event, p_account, p_amount, p_seq, p_balance) as p(event, account, amount, seq, balance);

    for v_accepted in 1 .. cardinality(c_index) loop
      v_index := c_index[v_accepted];
      v_append := p_appends->v_index;
      v_command_positions := to_jsonb(v_positions[c_first_event[v_accepted] : c_first_event[v_accepted] + c_events[v_accepted] - 1]);
      v_result := coalesce(v_append->'result', '{}'::jsonb) || jsonb_build_object(
        'streamId', v_append->>'stream',
        'streamVersion', (v_append->>'expected')::integer + c_events[v_accepted],
        'positions', v_command_positions,
        'checkpoint', v_tx_id::text || '.' || (v_command_positions->>-1),
        'replayed', false);
      v_outcomes[v_index + 1] := jsonb_build_object('ok', true, 'result', v_result);
      if jsonb_typeof(v_append->'idempotency') = 'object' then
        k_actor := k_actor || (v_append->'idempotency'->>'actor');
        k_key := k_key || (v_append->'idempotency'->>'key');
        k_command := k_command || (v_append->'idempotency'->>'command');
        k_hash := k_hash || (v_append->'idempotency'->>'hash');
        -- What the events do not say (ledger.recorded_result rebuilds the rest from them).
        k_result := k_result || case when c_events[v_accepted] > 0
          then coalesce(v_append->'result', '{}'::jsonb) || jsonb_build_object('positions', v_command_positions)
          else v_result end;
      end if;
    end loop;

    insert into ledger.idempotency_keys (actor_id, key, command, request_hash, result)
    select k.actor, k.key, k.command, decode(k.hash, 'hex'), k.result
      from unnest(k_actor, k_key, k_command, k_hash, k_result) as k(actor, key, command, hash, result);

    -- Each touched wallet head once, with its final balance and sequence.
    update ledger.accounts a
       set balance = h.balance, seq = h.seq
      from unnest(v_ids, v_balances, v_seqs, v_start_seqs) as h(id, balance, seq, start_seq)
     where a.id = h.id and h.seq <> h.start_seq;
  end if;

  -- A twin of a command in this batch answers that command's result, as a replay.
  for v_index in 0 .. v_count - 1 loop
    if v_outcomes[v_index + 1] ? 'twinOf' then
      v_outcomes[v_index + 1] := jsonb_build_object('ok', true, 'result',
        (v_outcomes[(v_outcomes[v_index + 1]->>'twinOf')::integer + 1]->'result') || jsonb_build_object('replayed', true));
    end if;
  end loop;
  return to_jsonb(v_outcomes);
end
$function$;

CREATE OR REPLACE FUNCTION ledger.assert_postings_balanced()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
declare
  v_position bigint;
  v_total numeric;
  v_account text;
begin
  -- Scalar subqueries, one index probe per line: as NOT EXISTS the planner may hash the
  -- whole log (a sequential scan of every event per statement).
  select i.position into v_position from inserted i
   where (select e.position from ledger.events e where e.position = i.position limit 1) is null limit 1;
  if found then
    raise exception 'postings name event % that does not exist', v_position using errcode = 'WL012';
  end if;
  select i.account_id into v_account from inserted i
   where (select a.id from ledger.accounts a where a.id = i.account_id limit 1) is null limit 1;
  if found then
    raise exception 'postings name account % that does not exist', v_account using errcode = 'WL012';
  end if;
  select position, sum(amount) into v_position, v_total
    from inserted group by position having sum(amount) <> 0 limit 1;
  if found then
    raise exception 'postings of event % sum to % paise, not zero', v_position, v_total
      using errcode = 'WL010';
  end if;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION ledger.expire_idempotency_keys(p_older_than interval, p_limit integer)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
declare
  v_deleted integer;
begin
  if p_older_than is null or p_older_than < interval '1 day' then
    raise exception 'idempotency keys are kept at least a day (asked for %)', p_older_than using errcode = '22023';
  end if;
  if p_limit is null or p_limit not between 1 and 100000 then
    raise exception 'expire between 1 and 100000 keys a call (asked for %)', p_limit using errcode = '22023';
  end if;
  delete from ledger.idempotency_keys k
   where k.ctid = any (array(
     select o.ctid from ledger.idempotency_keys o
      where o.recorded_at < now() - p_older_than
      limit p_limit));
  get diagnostics v_deleted = row_count;
  return v_deleted;
end
$function$;

CREATE OR REPLACE FUNCTION ledger.idempotency_digest(p_actor text, p_key text)
 RETURNS uuid
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
RETURN (encode(substr(sha256(convert_to(((((length(p_actor))::text || ':'::text) || p_actor) || p_key), 'UTF8'::name)), 1, 16), 'hex'::text))::uuid;

CREATE OR REPLACE FUNCTION ledger.open_wallet_account(p_account_id text)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
begin
  insert into ledger.accounts (id, kind, allow_negative, balance, seq)
    values (p_account_id, 'wallet', false, 0, 0)
    on conflict (id) do nothing;
  -- false: the account already exists (the caller rejects with account_exists).
  return found;
end
$function$;

CREATE OR REPLACE FUNCTION ledger.recorded_result(p_result jsonb)
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
  select case
    when jsonb_typeof(p_result) is distinct from 'object' or p_result ? 'streamId'
         or coalesce(jsonb_array_length(p_result->'positions'), 0) = 0 then p_result
    else p_result || (select jsonb_build_object('streamId', e.stream_id, 'streamVersion', e.stream_version,
                                                'checkpoint', e.tx_id::text || '.' || e.position::text, 'replayed', false)
                        from ledger.events e where e.position = (p_result->'positions'->>-1)::bigint)
  end
$function$;

CREATE OR REPLACE FUNCTION ledger.reject_account_removal()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
begin
  raise exception 'ledger.accounts rows are never removed (% is not allowed)', tg_op using errcode = 'WL011';
end
$function$;

CREATE OR REPLACE FUNCTION ledger.reject_mutation()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  raise exception 'ledger.% is append-only: % is not allowed', tg_table_name, tg_op
    using errcode = 'WL011';
end
$function$;

CREATE OR REPLACE FUNCTION projector.account_part(p_account_id text, p_parts integer)
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  select (hashtext(p_account_id) & 2147483647) % p_parts
$function$;

CREATE OR REPLACE FUNCTION projector.apply_accounts(p_schema text, p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
declare
  v_types text[];
begin
  perform projector.assert_target(p_schema, 'accounts');
  v_types := projector.range_types(p_from_tx, p_from_position, p_to_tx, p_to_position);
  if p_schema = 'read' then
    perform projector.apply_accounts__live(p_from_tx, p_from_position, p_to_tx, p_to_position, v_types);
  else
    perform projector.apply_accounts__rebuild(p_from_tx, p_from_position, p_to_tx, p_to_position, v_types);
  end if;
end
$function$;

CREATE OR REPLACE FUNCTION projector.apply_accounts__live(p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint, p_types text[])
 RETURNS void
 LANGUAGE plpgsql
 SET enable_seqscan TO 'off'
AS $function$
begin

  -- Each directory statement runs only when the range holds its types (p_types:
  -- projector.range_types); a payment's round holds neither.
  if p_types && array['WalletOpened'] then
  insert into read.directory (account_id, display_name, kind, opened_at)
  select e.data->>'accountId', e.data->>'displayName', 'wallet', e.recorded_at
    from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
     where e.type = 'WalletOpened';
  end if;

  -- A funding account appears in the directory with its first posting: only deposits' events
  -- (settled, reversed) post to one (ledger/accounts.ts).
  if p_types && array['DepositSettled', 'DepositReversed'] then
  insert into read.directory (account_id, display_name, kind, opened_at)
  select distinct on (p.account_id) p.account_id, projector.funding_name(p.account_id), 'funding', e.recorded_at
    from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
    cross join lateral (select * from ledger.postings p where p.position = e.position offset 0) p
     where projector.funding_name(p.account_id) is not null
   order by p.account_id, e.tx_id, e.position
  on conflict do nothing;
  end if;

  -- Statement lines and balances in one statement, over one read of the range and its postings
  -- (two statements read them twice and paid a statement's fixed cost twice a round). Every
  -- part of it sees the tables as they were before it: a funding posting's running figures
  -- start from the balance row as it was before this range.
  with in_range as materialized (
    select e.position, e.tx_id, e.type, e.stream_id, e.recorded_at, e.data
      from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
  ),
  posted as materialized (
    select p.account_id, p.amount, p.account_seq, p.balance_after,
           e.position, e.tx_id, e.type, e.stream_id, e.recorded_at,
           projector.transaction_id(e.type, e.data) as transaction_id
      from in_range e
      cross join lateral (select * from ledger.postings p where p.position = e.position offset 0) p
  ),
  lines as (
    select p.*,
           count(*) over event_lines as line_count,
           min(p.account_id) over event_lines as first_account,
           max(p.account_id) over event_lines as last_account
      from posted p
    window event_lines as (partition by p.position)
  ),
  -- The counterparty of a two-line movement is the other line's account.
  sided as (
    select l.*,
           case when l.line_count = 2 then
             case when l.account_id = l.first_account then l.last_account else l.first_account end
           end as counterparty_id
      from lines l
  ),
  running as (
    select s.*,
           coalesce(b.balance_paise, 0) + sum(s.amount) over account_order as running_balance,
           coalesce(b.postings_count, 0) + row_number() over account_order as running_count
      from sided s
      -- Only a line without its own figures (a funding account's) reads the balance row: a
      -- wallet's posting carries its sequence and balance, and a probe per wallet line was a
      -- fifth of this statement's time.
      left join lateral (
        select b.balance_paise, b.postings_count from read.balances b
         where b.account_id = s.account_id and (s.account_seq is null or s.balance_after is null) offset 0
      ) b on true
    window account_order as (partition by s.account_id order by s.tx_id, s.position)
  ),
  names as (
    select c.account_id,
           coalesce(projector.funding_name(c.account_id), w.data->>'displayName', c.account_id) as display_name
      from (select distinct counterparty_id as account_id from sided where counterparty_id is not null) c
      left join lateral (select e.data from ledger.events e
                          where e.stream_id = 'wallet-' || c.account_id and e.stream_version = 0 and e.type = 'WalletOpened'
                         offset 0) w on true
  ),
  statement_lines as (
    insert into read.statement_lines (account_id, position, tx_id, sequence, event_type, stream_id, transaction_id,
                                      counterparty_id, counterparty_name, amount_paise, balance_after_paise, recorded_at)
    select r.account_id, r.position, r.tx_id, coalesce(r.account_seq, r.running_count), r.type, r.stream_id,
           r.transaction_id, r.counterparty_id, n.display_name, r.amount,
           coalesce(r.balance_after, r.running_balance), r.recorded_at
      from running r
      left join names n on n.account_id = r.counterparty_id
  ),
  -- Balances: a wallet opened gets its row at zero; postings add up. The last position is the
  -- greatest of the account's postings, the time its event's (or the opening's).
  touches as (
    select p.account_id, p.amount, 1 as line, p.tx_id, p.position, p.recorded_at
      from posted p
    union all
    select e.data->>'accountId', 0, 0, e.tx_id, e.position, e.recorded_at
      from in_range e
     where e.type = 'WalletOpened'
  )
  insert into read.balances as b (account_id, balance_paise, postings_count, last_position, updated_at)
  select t.account_id, sum(t.amount), sum(t.line),
         max(t.position) filter (where t.line = 1),
         (array_agg(t.recorded_at order by t.position desc))[1]
    from touches t
   group by t.account_id
  on conflict (account_id) do update
     set balance_paise = b.balance_paise + excluded.balance_paise,
         postings_count = b.postings_count + excluded.postings_count,
         last_position = greatest(b.last_position, excluded.last_position),
         -- A range's postings can sit below one an earlier range applied (a transaction with a
         -- smaller xid took a larger position): the row keeps the greatest position's time.
         updated_at = case when excluded.last_position > coalesce(b.last_position, 0) then excluded.updated_at
                           else b.updated_at end;
end
$function$;

CREATE OR REPLACE FUNCTION projector.apply_accounts__rebuild(p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint, p_types text[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
begin

  -- Each directory statement runs only when the range holds its types (p_types:
  -- projector.range_types); a payment's round holds neither.
  if p_types && array['WalletOpened'] then
  insert into read_rebuild_accounts.directory (account_id, display_name, kind, opened_at)
  select e.data->>'accountId', e.data->>'displayName', 'wallet', e.recorded_at
    from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
     where e.type = 'WalletOpened';
  end if;

  -- A funding account appears in the directory with its first posting: only deposits' events
  -- (settled, reversed) post to one (ledger/accounts.ts).
  if p_types && array['DepositSettled', 'DepositReversed'] then
  insert into read_rebuild_accounts.directory (account_id, display_name, kind, opened_at)
  select distinct on (p.account_id) p.account_id, projector.funding_name(p.account_id), 'funding', e.recorded_at
    from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
    cross join lateral (select * from ledger.postings p where p.position = e.position offset 0) p
     where projector.funding_name(p.account_id) is not null
   order by p.account_id, e.tx_id, e.position
  on conflict do nothing;
  end if;

  -- Statement lines and balances in one statement, over one read of the range and its postings
  -- (two statements read them twice and paid a statement's fixed cost twice a round). Every
  -- part of it sees the tables as they were before it: a funding posting's running figures
  -- start from the balance row as it was before this range.
  with in_range as materialized (
    select e.position, e.tx_id, e.type, e.stream_id, e.recorded_at, e.data
      from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
  ),
  posted as materialized (
    select p.account_id, p.amount, p.account_seq, p.balance_after,
           e.position, e.tx_id, e.type, e.stream_id, e.recorded_at,
           projector.transaction_id(e.type, e.data) as transaction_id
      from in_range e
      cross join lateral (select * from ledger.postings p where p.position = e.position offset 0) p
  ),
  lines as (
    select p.*,
           count(*) over event_lines as line_count,
           min(p.account_id) over event_lines as first_account,
           max(p.account_id) over event_lines as last_account
      from posted p
    window event_lines as (partition by p.position)
  ),
  -- The counterparty of a two-line movement is the other line's account.
  sided as (
    select l.*,
           case when l.line_count = 2 then
             case when l.account_id = l.first_account then l.last_account else l.first_account end
           end as counterparty_id
      from lines l
  ),
  running as (
    select s.*,
           coalesce(b.balance_paise, 0) + sum(s.amount) over account_order as running_balance,
           coalesce(b.postings_count, 0) + row_number() over account_order as running_count
      from sided s
      -- Only a line without its own figures (a funding account's) reads the balance row: a
      -- wallet's posting carries its sequence and balance, and a probe per wallet line was a
      -- fifth of this statement's time.
      left join lateral (
        select b.balance_paise, b.postings_count from read_rebuild_accounts.balances b
         where b.account_id = s.account_id and (s.account_seq is null or s.balance_after is null) offset 0
      ) b on true
    window account_order as (partition by s.account_id order by s.tx_id, s.position)
  ),
  names as (
    select c.account_id,
           coalesce(projector.funding_name(c.account_id), w.data->>'displayName', c.account_id) as display_name
      from (select distinct counterparty_id as account_id from sided where counterparty_id is not null) c
      left join lateral (select e.data from ledger.events e
                          where e.stream_id = 'wallet-' || c.account_id and e.stream_version = 0 and e.type = 'WalletOpened'
                         offset 0) w on true
  ),
  statement_lines as (
    insert into read_rebuild_accounts.statement_lines (account_id, position, tx_id, sequence, event_type, stream_id, transaction_id,
                                      counterparty_id, counterparty_name, amount_paise, balance_after_paise, recorded_at)
    select r.account_id, r.position, r.tx_id, coalesce(r.account_seq, r.running_count), r.type, r.stream_id,
           r.transaction_id, r.counterparty_id, n.display_name, r.amount,
           coalesce(r.balance_after, r.running_balance), r.recorded_at
      from running r
      left join names n on n.account_id = r.counterparty_id
  ),
  -- Balances: a wallet opened gets its row at zero; postings add up. The last position is the
  -- greatest of the account's postings, the time its event's (or the opening's).
  touches as (
    select p.account_id, p.amount, 1 as line, p.tx_id, p.position, p.recorded_at
      from posted p
    union all
    select e.data->>'accountId', 0, 0, e.tx_id, e.position, e.recorded_at
      from in_range e
     where e.type = 'WalletOpened'
  )
  insert into read_rebuild_accounts.balances as b (account_id, balance_paise, postings_count, last_position, updated_at)
  select t.account_id, sum(t.amount), sum(t.line),
         max(t.position) filter (where t.line = 1),
         (array_agg(t.recorded_at order by t.position desc))[1]
    from touches t
   group by t.account_id
  on conflict (account_id) do update
     set balance_paise = b.balance_paise + excluded.balance_paise,
         postings_count = b.postings_count + excluded.postings_count,
         last_position = greatest(b.last_position, excluded.last_position),
         -- A range's postings can sit below one an earlier range applied (a transaction with a
         -- smaller xid took a larger position): the row keeps the greatest position's time.
         updated_at = case when excluded.last_position > coalesce(b.last_position, 0) then excluded.updated_at
                           else b.updated_at end;
end
$function$;

CREATE OR REPLACE FUNCTION projector.apply_history(p_schema text, p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
declare
  v_types text[];
begin
  perform projector.assert_target(p_schema, 'history');
  v_types := projector.range_types(p_from_tx, p_from_position, p_to_tx, p_to_position);
  if p_schema = 'read' then
    perform projector.apply_history__live(p_from_tx, p_from_position, p_to_tx, p_to_position, v_types);
  else
    perform projector.apply_history__rebuild(p_from_tx, p_from_position, p_to_tx, p_to_position, v_types);
  end if;
end
$function$;

CREATE OR REPLACE FUNCTION projector.apply_history__live(p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint, p_types text[])
 RETURNS void
 LANGUAGE plpgsql
 SET enable_seqscan TO 'off'
AS $function$
begin

  -- Settlements and failures of deposits requested before this range. First, so that a
  -- reversal row this range adds on the same stream keeps its own status and time. Each
  -- statement runs only when the range holds its types (p_types: projector.range_types).
  if p_types && array['DepositSettled', 'DepositFailed'] then
  update read.history h
     set status = c.status, updated_at = c.recorded_at, failure_reason = c.failure_reason
    from (select distinct on (e.data->>'walletId', e.stream_id)
                 e.data->>'walletId' as account_id, e.stream_id,
                 case e.type when 'DepositSettled' then 'success' else 'failed' end as status, e.recorded_at,
                 case when e.type = 'DepositFailed' then e.data->>'reason' end as failure_reason
            from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
           where e.type in ('DepositSettled', 'DepositFailed')
           order by e.data->>'walletId', e.stream_id, e.tx_id desc, e.position desc) c
   where h.account_id = c.account_id and h.stream_id = c.stream_id;
  end if;

  if p_types && array['DepositRequested', 'DepositReversed', 'TransferCompleted', 'TransferReversed',
                      'MoneyRequestAccepted', 'MoneyRequestPaymentReversed'] then
  with movements as (
    select e.position, e.tx_id, e.stream_id, e.type, e.recorded_at,
           projector.transaction_id(e.type, e.data) as transaction_id,
           projector.history_sender(e.type, e.data) as sender_id,
           projector.history_receiver(e.type, e.data) as receiver_id,
           projector.history_funding(e.type, e.data) as funding_id,
           (e.data->>'amountPaise')::bigint as amount_paise,
           projector.history_reference(e.type, e.data) as reference,
           projector.history_method(e.type, e.data) as method
      from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
     where e.type in ('DepositRequested', 'DepositReversed', 'TransferCompleted', 'TransferReversed',
                      'MoneyRequestAccepted', 'MoneyRequestPaymentReversed')
  ),
  rows as (
    -- The sender's row; for a deposit request, the wallet's 'deposit' row.
    select m.*, m.sender_id as account_id,
           case when m.type = 'DepositRequested' then 'deposit' else 'debit' end as row_type,
           coalesce(m.funding_id, m.receiver_id) as counterparty_id
      from movements m
    union all
    -- The receiver's row, when the receiver is a wallet.
    select m.*, m.receiver_id, 'credit', m.sender_id
      from movements m
     where m.funding_id is null
  ),
  -- A deposit settled or failed in this range, after its request in this range.
  answers as (
    select distinct on (e.stream_id) e.stream_id,
           case e.type when 'DepositSettled' then 'success' else 'failed' end as status, e.recorded_at,
           case when e.type = 'DepositFailed' then e.data->>'reason' end as failure_reason
      from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
     where e.type in ('DepositSettled', 'DepositFailed')
     order by e.stream_id, e.tx_id desc, e.position desc
  ),
  names as (
    select c.account_id,
           coalesce(projector.funding_name(c.account_id), w.data->>'displayName', c.account_id) as display_name
      from (select distinct counterparty_id as account_id from rows) c
      left join lateral (select e.data from ledger.events e
                          where e.stream_id = 'wallet-' || c.account_id and e.stream_version = 0 and e.type = 'WalletOpened'
                         offset 0) w on true
  ),
  -- Each account's rows before this range, and this range's: its rows are keyed for search once
  -- there are more than read.history_keys_after_rows() (projections/history/search-keys.sql).
  totals as (
    select t.account_id, t.added,
           coalesce((select sum(c.rows) from read.history_counts c where c.account_id = t.account_id), 0) as before
      from (select account_id, count(*) as added from rows group by account_id) t
  ),
  -- An account passing the bound in this range: its new rows are inserted keyed, and its earlier
  -- ones are keyed after the round, in a transaction of their own (projector.key_earlier_history,
  -- below): 2,000 rows updated with their search keys took ~1 s, and every reply waiting for the
  -- round waited it out. Until then the account is listed here and a search walks its rows.
  keying_queued as (
    insert into read.history_keying (account_id)
    select t.account_id from totals t
     where t.before <= read.history_keys_after_rows() and t.before + t.added > read.history_keys_after_rows()
    on conflict do nothing
  ),
  inserted as (
    insert into read.history (account_id, stream_id, transaction_id, type, sender_id, receiver_id, counterparty_id,
                              counterparty_name, amount_paise, reference, status, method, created_at, updated_at,
                              tx_id, position, failure_reason, keyed)
    select r.account_id, r.stream_id, r.transaction_id, r.row_type, r.sender_id, r.receiver_id, r.counterparty_id,
           n.display_name, r.amount_paise, r.reference,
           case when r.type = 'DepositRequested' then coalesce(a.status, 'pending') else 'success' end,
           r.method, r.recorded_at,
           case when r.type = 'DepositRequested' then coalesce(a.recorded_at, r.recorded_at) else r.recorded_at end,
           r.tx_id, r.position, case when r.type = 'DepositRequested' then a.failure_reason end,
           t.before + t.added > read.history_keys_after_rows()
      from rows r
      join names n on n.account_id = r.counterparty_id
      join totals t on t.account_id = r.account_id
      left join answers a on r.type = 'DepositRequested' and a.stream_id = r.stream_id
    returning account_id, type
  )
  insert into read.history_counts as t (account_id, type, rows)
  select account_id, type, count(*) from inserted group by account_id, type
  on conflict (account_id, type) do update set rows = t.rows + excluded.rows;
  end if;

  -- Who made each event (any type): the admin explorer's actor filter (audit/explorer.ts) reads
  -- it here rather than through an index on the log that every append would pay for.
  insert into read.event_actors (actor_id, position)
  select e.metadata->>'actorId', e.position
    from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
   where e.metadata ? 'actorId'
  on conflict do nothing;
end
$function$;

CREATE OR REPLACE FUNCTION projector.apply_history__rebuild(p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint, p_types text[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
begin

  -- Settlements and failures of deposits requested before this range. First, so that a
  -- reversal row this range adds on the same stream keeps its own status and time. Each
  -- statement runs only when the range holds its types (p_types: projector.range_types).
  if p_types && array['DepositSettled', 'DepositFailed'] then
  update read_rebuild_history.history h
     set status = c.status, updated_at = c.recorded_at, failure_reason = c.failure_reason
    from (select distinct on (e.data->>'walletId', e.stream_id)
                 e.data->>'walletId' as account_id, e.stream_id,
                 case e.type when 'DepositSettled' then 'success' else 'failed' end as status, e.recorded_at,
                 case when e.type = 'DepositFailed' then e.data->>'reason' end as failure_reason
            from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
           where e.type in ('DepositSettled', 'DepositFailed')
           order by e.data->>'walletId', e.stream_id, e.tx_id desc, e.position desc) c
   where h.account_id = c.account_id and h.stream_id = c.stream_id;
  end if;

  if p_types && array['DepositRequested', 'DepositReversed', 'TransferCompleted', 'TransferReversed',
                      'MoneyRequestAccepted', 'MoneyRequestPaymentReversed'] then
  with movements as (
    select e.position, e.tx_id, e.stream_id, e.type, e.recorded_at,
           projector.transaction_id(e.type, e.data) as transaction_id,
           projector.history_sender(e.type, e.data) as sender_id,
           projector.history_receiver(e.type, e.data) as receiver_id,
           projector.history_funding(e.type, e.data) as funding_id,
           (e.data->>'amountPaise')::bigint as amount_paise,
           projector.history_reference(e.type, e.data) as reference,
           projector.history_method(e.type, e.data) as method
      from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
     where e.type in ('DepositRequested', 'DepositReversed', 'TransferCompleted', 'TransferReversed',
                      'MoneyRequestAccepted', 'MoneyRequestPaymentReversed')
  ),
  rows as (
    -- The sender's row; for a deposit request, the wallet's 'deposit' row.
    select m.*, m.sender_id as account_id,
           case when m.type = 'DepositRequested' then 'deposit' else 'debit' end as row_type,
           coalesce(m.funding_id, m.receiver_id) as counterparty_id
      from movements m
    union all
    -- The receiver's row, when the receiver is a wallet.
    select m.*, m.receiver_id, 'credit', m.sender_id
      from movements m
     where m.funding_id is null
  ),
  -- A deposit settled or failed in this range, after its request in this range.
  answers as (
    select distinct on (e.stream_id) e.stream_id,
           case e.type when 'DepositSettled' then 'success' else 'failed' end as status, e.recorded_at,
           case when e.type = 'DepositFailed' then e.data->>'reason' end as failure_reason
      from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
     where e.type in ('DepositSettled', 'DepositFailed')
     order by e.stream_id, e.tx_id desc, e.position desc
  ),
  names as (
    select c.account_id,
           coalesce(projector.funding_name(c.account_id), w.data->>'displayName', c.account_id) as display_name
      from (select distinct counterparty_id as account_id from rows) c
      left join lateral (select e.data from ledger.events e
                          where e.stream_id = 'wallet-' || c.account_id and e.stream_version = 0 and e.type = 'WalletOpened'
                         offset 0) w on true
  ),
  -- Each account's rows before this range, and this range's: its rows are keyed for search once
  -- there are more than read.history_keys_after_rows() (projections/history/search-keys.sql).
  totals as (
    select t.account_id, t.added,
           coalesce((select sum(c.rows) from read_rebuild_history.history_counts c where c.account_id = t.account_id), 0) as before
      from (select account_id, count(*) as added from rows group by account_id) t
  ),
  -- An account passing the bound in this range: its new rows are inserted keyed, and its earlier
  -- ones are keyed after the round, in a transaction of their own (projector.key_earlier_history,
  -- below): 2,000 rows updated with their search keys took ~1 s, and every reply waiting for the
  -- round waited it out. Until then the account is listed here and a search walks its rows.
  keying_queued as (
    insert into read_rebuild_history.history_keying (account_id)
    select t.account_id from totals t
     where t.before <= read.history_keys_after_rows() and t.before + t.added > read.history_keys_after_rows()
    on conflict do nothing
  ),
  inserted as (
    insert into read_rebuild_history.history (account_id, stream_id, transaction_id, type, sender_id, receiver_id, counterparty_id,
                              counterparty_name, amount_paise, reference, status, method, created_at, updated_at,
                              tx_id, position, failure_reason, keyed)
    select r.account_id, r.stream_id, r.transaction_id, r.row_type, r.sender_id, r.receiver_id, r.counterparty_id,
           n.display_name, r.amount_paise, r.reference,
           case when r.type = 'DepositRequested' then coalesce(a.status, 'pending') else 'success' end,
           r.method, r.recorded_at,
           case when r.type = 'DepositRequested' then coalesce(a.recorded_at, r.recorded_at) else r.recorded_at end,
           r.tx_id, r.position, case when r.type = 'DepositRequested' then a.failure_reason end,
           t.before + t.added > read.history_keys_after_rows()
      from rows r
      join names n on n.account_id = r.counterparty_id
      join totals t on t.account_id = r.account_id
      left join answers a on r.type = 'DepositRequested' and a.stream_id = r.stream_id
    returning account_id, type
  )
  insert into read_rebuild_history.history_counts as t (account_id, type, rows)
  select account_id, type, count(*) from inserted group by account_id, type
  on conflict (account_id, type) do update set rows = t.rows + excluded.rows;
  end if;

  -- Who made each event (any type): the admin explorer's actor filter (audit/explorer.ts) reads
  -- it here rather than through an index on the log that every append would pay for.
  insert into read_rebuild_history.event_actors (actor_id, position)
  select e.metadata->>'actorId', e.position
    from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
   where e.metadata ? 'actorId'
  on conflict do nothing;
end
$function$;

CREATE OR REPLACE FUNCTION projector.apply_money_requests(p_schema text, p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
declare
  v_types text[];
begin
  perform projector.assert_target(p_schema, 'money_requests');
  v_types := projector.range_types(p_from_tx, p_from_position, p_to_tx, p_to_position);
  if p_schema = 'read' then
    perform projector.apply_money_requests__live(p_from_tx, p_from_position, p_to_tx, p_to_position, v_types);
  else
    perform projector.apply_money_requests__rebuild(p_from_tx, p_from_position, p_to_tx, p_to_position, v_types);
  end if;
end
$function$;

CREATE OR REPLACE FUNCTION projector.apply_money_requests__live(p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint, p_types text[])
 RETURNS void
 LANGUAGE plpgsql
 SET enable_seqscan TO 'off'
AS $function$
begin

  -- Answers to requests made before this range (first: a request made in this range is
  -- inserted with its answer below). Each statement runs only when the range holds its types
  -- (p_types: projector.range_types); a payment's round holds neither.
  if p_types && array['MoneyRequestAccepted', 'MoneyRequestRejected'] then
  update read.money_requests m
     set status = a.status, updated_at = a.recorded_at
    from (select distinct on (e.data->>'requestId') e.data->>'requestId' as request_id,
                 case e.type when 'MoneyRequestAccepted' then 'accepted' else 'rejected' end as status,
                 e.recorded_at
            from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
           where e.type in ('MoneyRequestAccepted', 'MoneyRequestRejected')
           order by e.data->>'requestId', e.tx_id desc, e.position desc) a
   where m.request_id = a.request_id;
  end if;

  if p_types && array['MoneyRequested'] then
  with requests as (
    select e.data->>'requestId' as request_id, e.data->>'requesterId' as requester_id,
           e.data->>'payerId' as payer_id, (e.data->>'amountPaise')::bigint as amount_paise,
           e.data->>'reference' as reference, e.recorded_at, e.position
      from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
     where e.type = 'MoneyRequested'
  ),
  answers as (
    select distinct on (e.data->>'requestId') e.data->>'requestId' as request_id,
           case e.type when 'MoneyRequestAccepted' then 'accepted' else 'rejected' end as status,
           e.recorded_at
      from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
     where e.type in ('MoneyRequestAccepted', 'MoneyRequestRejected')
     order by e.data->>'requestId', e.tx_id desc, e.position desc
  ),
  names as (
    select c.account_id, coalesce(w.data->>'displayName', c.account_id) as display_name
      from (select requester_id as account_id from requests union select payer_id from requests) c
      left join lateral (select e.data from ledger.events e
                          where e.stream_id = 'wallet-' || c.account_id and e.stream_version = 0 and e.type = 'WalletOpened'
                         offset 0) w on true
  )
  insert into read.money_requests (request_id, requester_id, requester_name, payer_id, payer_name, amount_paise,
                                   reference, status, created_at, updated_at, position)
  select r.request_id, r.requester_id, rn.display_name, r.payer_id, pn.display_name, r.amount_paise, r.reference,
         coalesce(a.status, 'pending'), r.recorded_at, coalesce(a.recorded_at, r.recorded_at), r.position
    from requests r
    join names rn on rn.account_id = r.requester_id
    join names pn on pn.account_id = r.payer_id
    left join answers a on a.request_id = r.request_id;
  end if;
end
$function$;

CREATE OR REPLACE FUNCTION projector.apply_money_requests__rebuild(p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint, p_types text[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
begin

  -- Answers to requests made before this range (first: a request made in this range is
  -- inserted with its answer below). Each statement runs only when the range holds its types
  -- (p_types: projector.range_types); a payment's round holds neither.
  if p_types && array['MoneyRequestAccepted', 'MoneyRequestRejected'] then
  update read_rebuild_money_requests.money_requests m
     set status = a.status, updated_at = a.recorded_at
    from (select distinct on (e.data->>'requestId') e.data->>'requestId' as request_id,
                 case e.type when 'MoneyRequestAccepted' then 'accepted' else 'rejected' end as status,
                 e.recorded_at
            from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
           where e.type in ('MoneyRequestAccepted', 'MoneyRequestRejected')
           order by e.data->>'requestId', e.tx_id desc, e.position desc) a
   where m.request_id = a.request_id;
  end if;

  if p_types && array['MoneyRequested'] then
  with requests as (
    select e.data->>'requestId' as request_id, e.data->>'requesterId' as requester_id,
           e.data->>'payerId' as payer_id, (e.data->>'amountPaise')::bigint as amount_paise,
           e.data->>'reference' as reference, e.recorded_at, e.position
      from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
     where e.type = 'MoneyRequested'
  ),
  answers as (
    select distinct on (e.data->>'requestId') e.data->>'requestId' as request_id,
           case e.type when 'MoneyRequestAccepted' then 'accepted' else 'rejected' end as status,
           e.recorded_at
      from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
     where e.type in ('MoneyRequestAccepted', 'MoneyRequestRejected')
     order by e.data->>'requestId', e.tx_id desc, e.position desc
  ),
  names as (
    select c.account_id, coalesce(w.data->>'displayName', c.account_id) as display_name
      from (select requester_id as account_id from requests union select payer_id from requests) c
      left join lateral (select e.data from ledger.events e
                          where e.stream_id = 'wallet-' || c.account_id and e.stream_version = 0 and e.type = 'WalletOpened'
                         offset 0) w on true
  )
  insert into read_rebuild_money_requests.money_requests (request_id, requester_id, requester_name, payer_id, payer_name, amount_paise,
                                   reference, status, created_at, updated_at, position)
  select r.request_id, r.requester_id, rn.display_name, r.payer_id, pn.display_name, r.amount_paise, r.reference,
         coalesce(a.status, 'pending'), r.recorded_at, coalesce(a.recorded_at, r.recorded_at), r.position
    from requests r
    join names rn on rn.account_id = r.requester_id
    join names pn on pn.account_id = r.payer_id
    left join answers a on a.request_id = r.request_id;
  end if;
end
$function$;

CREATE OR REPLACE FUNCTION projector.apply_statement_days(p_schema text, p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
declare
  v_types text[];
begin
  perform projector.assert_target(p_schema, 'statement_days');
  v_types := projector.range_types(p_from_tx, p_from_position, p_to_tx, p_to_position);
  if p_schema = 'read' then
    perform projector.apply_statement_days__live(p_from_tx, p_from_position, p_to_tx, p_to_position, v_types);
  else
    perform projector.apply_statement_days__rebuild(p_from_tx, p_from_position, p_to_tx, p_to_position, v_types);
  end if;
end
$function$;

CREATE OR REPLACE FUNCTION projector.apply_statement_days__live(p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint, p_types text[])
 RETURNS void
 LANGUAGE plpgsql
 SET enable_seqscan TO 'off'
AS $function$
begin

  with deltas as materialized (select * from projector.statement_deltas(p_from_tx, p_from_position, p_to_tx, p_to_position)),
  -- Days already projected from each wallet's first day in this range on (usually only today's
  -- row of each wallet; a late commit across midnight finds the later days too), looked up
  -- once: what the update moves, and what tells a new day from an old one.
  existing as materialized (
    select a.account_id, k.row_id, k.day
      from (select account_id, min(day) as first_day from deltas group by account_id) a
      cross join lateral (
        select t.ctid as row_id, t.day from read.statement_days t
         where t.account_id = a.account_id and t.day >= a.first_day
        offset 0
      ) k
  ),
  -- Each existing day gains its own day's figures, and its closing balance every net amount of
  -- this range on that day or before it.
  shifts as (
    select k.row_id, sum(d.net) as net,
           coalesce(sum(d.money_in) filter (where d.day = k.day), 0) as money_in,
           coalesce(sum(d.money_out) filter (where d.day = k.day), 0) as money_out,
           coalesce(sum(d.postings) filter (where d.day = k.day), 0) as postings
      from existing k
      join deltas d on d.account_id = k.account_id and d.day <= k.day
     group by k.row_id
  ),
  moved as (
    update read.statement_days t
       set money_in_paise = t.money_in_paise + s.money_in,
           money_out_paise = t.money_out_paise + s.money_out,
           closing_balance_paise = t.closing_balance_paise + s.net,
           postings_count = t.postings_count + s.postings
      from shifts s
     where t.ctid = s.row_id
  ),
  -- A range's day is new unless the lookup above found it (every day of the range is on or
  -- after its wallet's first day in the range): no second probe per day.
  fresh as (
    select d.* from deltas d
     where not exists (select 1 from existing k where k.account_id = d.account_id and k.day = d.day)
  )
  -- New days (see the header for the closing balance).
  insert into read.statement_days (account_id, day, money_in_paise, money_out_paise, closing_balance_paise, postings_count)
  select f.account_id, f.day, f.money_in, f.money_out,
         coalesce(prior.closing_balance_paise, 0)
           + (select sum(d.net) from deltas d where d.account_id = f.account_id and d.day <= f.day),
         f.postings
    from fresh f
    left join lateral (
      select t.closing_balance_paise from read.statement_days t
       where t.account_id = f.account_id and t.day < f.day
       order by t.day desc limit 1
    ) prior on true;
end
$function$;

CREATE OR REPLACE FUNCTION projector.apply_statement_days__rebuild(p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint, p_types text[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
begin

  with deltas as materialized (select * from projector.statement_deltas(p_from_tx, p_from_position, p_to_tx, p_to_position)),
  -- Days already projected from each wallet's first day in this range on (usually only today's
  -- row of each wallet; a late commit across midnight finds the later days too), looked up
  -- once: what the update moves, and what tells a new day from an old one.
  existing as materialized (
    select a.account_id, k.row_id, k.day
      from (select account_id, min(day) as first_day from deltas group by account_id) a
      cross join lateral (
        select t.ctid as row_id, t.day from read_rebuild_statement_days.statement_days t
         where t.account_id = a.account_id and t.day >= a.first_day
        offset 0
      ) k
  ),
  -- Each existing day gains its own day's figures, and its closing balance every net amount of
  -- this range on that day or before it.
  shifts as (
    select k.row_id, sum(d.net) as net,
           coalesce(sum(d.money_in) filter (where d.day = k.day), 0) as money_in,
           coalesce(sum(d.money_out) filter (where d.day = k.day), 0) as money_out,
           coalesce(sum(d.postings) filter (where d.day = k.day), 0) as postings
      from existing k
      join deltas d on d.account_id = k.account_id and d.day <= k.day
     group by k.row_id
  ),
  moved as (
    update read_rebuild_statement_days.statement_days t
       set money_in_paise = t.money_in_paise + s.money_in,
           money_out_paise = t.money_out_paise + s.money_out,
           closing_balance_paise = t.closing_balance_paise + s.net,
           postings_count = t.postings_count + s.postings
      from shifts s
     where t.ctid = s.row_id
  ),
  -- A range's day is new unless the lookup above found it (every day of the range is on or
  -- after its wallet's first day in the range): no second probe per day.
  fresh as (
    select d.* from deltas d
     where not exists (select 1 from existing k where k.account_id = d.account_id and k.day = d.day)
  )
  -- New days (see the header for the closing balance).
  insert into read_rebuild_statement_days.statement_days (account_id, day, money_in_paise, money_out_paise, closing_balance_paise, postings_count)
  select f.account_id, f.day, f.money_in, f.money_out,
         coalesce(prior.closing_balance_paise, 0)
           + (select sum(d.net) from deltas d where d.account_id = f.account_id and d.day <= f.day),
         f.postings
    from fresh f
    left join lateral (
      select t.closing_balance_paise from read_rebuild_statement_days.statement_days t
       where t.account_id = f.account_id and t.day < f.day
       order by t.day desc limit 1
    ) prior on true;
end
$function$;

CREATE OR REPLACE FUNCTION projector.assert_target(p_schema text, p_projection text)
 RETURNS void
 LANGUAGE plpgsql
 IMMUTABLE
AS $function$
begin
  if p_schema is distinct from 'read' and p_schema is distinct from 'read_rebuild_' || p_projection then
    raise exception 'projection % may not write schema %', p_projection, p_schema;
  end if;
end
$function$;

CREATE OR REPLACE FUNCTION projector.bulk_replay_accounts(p_to_tx xid8, p_to_position bigint, p_parts integer, p_part integer)
 RETURNS void
 LANGUAGE plpgsql
 SET enable_nestloop TO 'off'
 SET work_mem TO '256MB'
AS $function$
begin
  insert into read_rebuild_accounts.directory (account_id, display_name, kind, opened_at)
  select e.data->>'accountId', e.data->>'displayName', 'wallet', e.recorded_at
    from ledger.events e
   where e.type = 'WalletOpened'
     and (e.tx_id, e.position) <= (p_to_tx, p_to_position)
     and projector.account_part(e.data->>'accountId', p_parts) = p_part;

  insert into read_rebuild_accounts.directory (account_id, display_name, kind, opened_at)
  select distinct on (p.account_id) p.account_id, projector.funding_name(p.account_id), 'funding', e.recorded_at
    from ledger.postings p
    join ledger.events e on e.position = p.position
   where projector.funding_name(p.account_id) is not null
     and (e.tx_id, e.position) <= (p_to_tx, p_to_position)
     and projector.account_part(p.account_id, p_parts) = p_part
   order by p.account_id, e.tx_id, e.position
  on conflict do nothing;

  with lines as (
    select p.account_id, p.amount, p.account_seq, p.balance_after,
           e.position, e.tx_id, e.type, e.stream_id, e.recorded_at,
           projector.transaction_id(e.type, e.data) as transaction_id,
           x.line_count, x.first_account, x.last_account
      from ledger.postings p
      join ledger.events e on e.position = p.position
      -- Every line of the event, whichever part its account is in.
      join (select q.position, count(*) as line_count, min(q.account_id) as first_account,
                   max(q.account_id) as last_account
              from ledger.postings q
             group by q.position) x on x.position = p.position
     where (e.tx_id, e.position) <= (p_to_tx, p_to_position)
       and projector.account_part(p.account_id, p_parts) = p_part
  ),
  sided as (
    select l.*,
           case when l.line_count = 2 then
             case when l.account_id = l.first_account then l.last_account else l.first_account end
           end as counterparty_id
      from lines l
  ),
  -- A wallet's line carries the ledger's own sequence and running balance, as the rule takes
  -- them; only the lines without (a funding account's: every line of an account has them or
  -- none does) are numbered and summed here, in read order. Sorting every line of the part by
  -- account for that was a fifth of this load at a million events, and spilled to disk.
  running as (
    select s.*, s.account_seq as sequence, s.balance_after as running_balance
      from sided s
     where s.account_seq is not null and s.balance_after is not null
    union all
    select s.*, row_number() over account_order, sum(s.amount) over account_order
      from sided s
     where s.account_seq is null or s.balance_after is null
    window account_order as (partition by s.account_id order by s.tx_id, s.position)
  ),
  names as (
    select c.account_id,
           coalesce(projector.funding_name(c.account_id), w.data->>'displayName', c.account_id) as display_name
      from (select distinct counterparty_id as account_id from sided where counterparty_id is not null) c
      left join lateral (select e.data from ledger.events e
                          where e.stream_id = 'wallet-' || c.account_id and e.stream_version = 0 and e.type = 'WalletOpened'
                         offset 0) w on true
  )
  insert into read_rebuild_accounts.statement_lines (account_id, position, tx_id, sequence, event_type, stream_id,
                                                    transaction_id, counterparty_id, counterparty_name, amount_paise,
                                                    balance_after_paise, recorded_at)
  select r.account_id, r.position, r.tx_id, r.sequence, r.type, r.stream_id,
         r.transaction_id, r.counterparty_id, n.display_name, r.amount, r.running_balance, r.recorded_at
    from running r
    left join names n on n.account_id = r.counterparty_id;

  -- The balances: the same rows as the balances alone give (decision 0022), per account from
  -- its newest posting, rather than a second pass over every line of the part.
  perform projector.bulk_replay_balances(p_to_tx, p_to_position, p_parts, p_part);
end
$function$;

CREATE OR REPLACE FUNCTION projector.bulk_replay_balances(p_to_tx xid8, p_to_position bigint, p_parts integer, p_part integer)
 RETURNS void
 LANGUAGE plpgsql
 SET enable_nestloop TO 'on'
AS $function$
begin
  with later as materialized (
    select p.account_id, p.position, p.amount
      from ledger.events e
      cross join lateral (select * from ledger.postings p where p.position = e.position offset 0) p
     where (e.tx_id, e.position) > (p_to_tx, p_to_position)
  ),
  part as (
    select a.id, a.kind from ledger.accounts a where projector.account_part(a.id, p_parts) = p_part
  ),
  wallets as (
    select w.id,
           coalesce(newest.balance_after, 0) - coalesce(outside.amount, 0) as balance,
           coalesce(newest.account_seq, 0) - coalesce(outside.postings, 0) as postings,
           inside.position as last_position
      from part w
      left join lateral (
        select p.balance_after, p.account_seq from ledger.postings p
         where p.account_id = w.id order by p.account_seq desc limit 1
      ) newest on true
      left join lateral (
        select sum(l.amount) as amount, count(*) as postings from later l where l.account_id = w.id
      ) outside on true
      left join lateral (
        select p.position from ledger.postings p
         where p.account_id = w.id
           and not exists (select 1 from later l where l.position = p.position and l.account_id = p.account_id)
         order by p.account_seq desc limit 1
      ) inside on true
     where w.kind = 'wallet'
  ),
  funding as (
    select f.id, sum(p.amount) as balance, count(*) as postings, max(p.position) as last_position
      from part f
      join ledger.postings p on p.account_id = f.id
     where f.kind <> 'wallet'
       and not exists (select 1 from later l where l.position = p.position and l.account_id = p.account_id)
     group by f.id
  ),
  sums as (
    select * from wallets union all select * from funding
  )
  insert into read_rebuild_accounts.balances (account_id, balance_paise, postings_count, last_position, updated_at)
  select s.id, s.balance, s.postings, s.last_position, coalesce(l.recorded_at, o.recorded_at)
    from sums s
    left join lateral (select e.recorded_at from ledger.events e where e.position = s.last_position offset 0) l on true
    left join lateral (
      select e.recorded_at from ledger.events e
       where e.stream_id = 'wallet-' || s.id and e.stream_version = 0 and e.type = 'WalletOpened'
         and (e.tx_id, e.position) <= (p_to_tx, p_to_position)
      offset 0
    ) o on true
   where s.postings > 0 or o.recorded_at is not null;
end
$function$;

CREATE OR REPLACE FUNCTION projector.bulk_replay_history(p_to_tx xid8, p_to_position bigint, p_parts integer, p_part integer)
 RETURNS void
 LANGUAGE plpgsql
 SET enable_nestloop TO 'off'
 SET work_mem TO '256MB'
AS $function$
begin
  with movements as (
    select e.position, e.tx_id, e.stream_id, e.type, e.recorded_at,
           projector.transaction_id(e.type, e.data) as transaction_id,
           projector.history_sender(e.type, e.data) as sender_id,
           projector.history_receiver(e.type, e.data) as receiver_id,
           projector.history_funding(e.type, e.data) as funding_id,
           (e.data->>'amountPaise')::bigint as amount_paise,
           projector.history_reference(e.type, e.data) as reference,
           projector.history_method(e.type, e.data) as method
      from ledger.events e
     where e.type in ('DepositRequested', 'DepositReversed', 'TransferCompleted', 'TransferReversed',
                      'MoneyRequestAccepted', 'MoneyRequestPaymentReversed')
       and (e.tx_id, e.position) <= (p_to_tx, p_to_position)
  ),
  rows as (
    select r.* from (
      select m.*, m.sender_id as account_id,
             case when m.type = 'DepositRequested' then 'deposit' else 'debit' end as row_type,
             coalesce(m.funding_id, m.receiver_id) as counterparty_id
        from movements m
      union all
      select m.*, m.receiver_id, 'credit', m.sender_id
        from movements m
       where m.funding_id is null
    ) r
     where projector.account_part(r.account_id, p_parts) = p_part
  ),
  answers as (
    select distinct on (e.stream_id) e.stream_id,
           case e.type when 'DepositSettled' then 'success' else 'failed' end as status, e.recorded_at,
           case when e.type = 'DepositFailed' then e.data->>'reason' end as failure_reason
      from ledger.events e
     where e.type in ('DepositSettled', 'DepositFailed')
       and (e.tx_id, e.position) <= (p_to_tx, p_to_position)
       and projector.account_part(e.data->>'walletId', p_parts) = p_part
     order by e.stream_id, e.tx_id desc, e.position desc
  ),
  names as (
    select c.account_id,
           coalesce(projector.funding_name(c.account_id), w.data->>'displayName', c.account_id) as display_name
      from (select distinct counterparty_id as account_id from rows) c
      left join (select e.stream_id, e.data from ledger.events e
                  where e.type = 'WalletOpened' and e.stream_version = 0) w on w.stream_id = 'wallet-' || c.account_id
  ),
  -- Every row of an account is in this part: its rows are keyed as the rule leaves them. Counted
  -- by a hash aggregate, not a window over the rows (that sorted every wide row by account).
  keyed as (
    select account_id, count(*) > read.history_keys_after_rows() as keyed from rows group by account_id
  ),
  inserted as (
    insert into read_rebuild_history.history (account_id, stream_id, transaction_id, type, sender_id, receiver_id,
                              counterparty_id, counterparty_name, amount_paise, reference, status, method, created_at,
                              updated_at, tx_id, position, failure_reason, keyed)
    select r.account_id, r.stream_id, r.transaction_id, r.row_type, r.sender_id, r.receiver_id, r.counterparty_id,
           n.display_name, r.amount_paise, r.reference,
           case when r.type = 'DepositRequested' then coalesce(a.status, 'pending') else 'success' end,
           r.method, r.recorded_at,
           case when r.type = 'DepositRequested' then coalesce(a.recorded_at, r.recorded_at) else r.recorded_at end,
           r.tx_id, r.position, case when r.type = 'DepositRequested' then a.failure_reason end, k.keyed
      from rows r
      join names n on n.account_id = r.counterparty_id
      join keyed k on k.account_id = r.account_id
      left join answers a on r.type = 'DepositRequested' and a.stream_id = r.stream_id
    returning account_id, type
  )
  insert into read_rebuild_history.history_counts (account_id, type, rows)
  select account_id, type, count(*) from inserted group by account_id, type;

  insert into read_rebuild_history.event_actors (actor_id, position)
  select e.metadata->>'actorId', e.position
    from ledger.events e
   where e.metadata ? 'actorId'
     and (e.tx_id, e.position) <= (p_to_tx, p_to_position)
     and projector.account_part(e.metadata->>'actorId', p_parts) = p_part;
end
$function$;

CREATE OR REPLACE FUNCTION projector.bulk_replay_money_requests(p_to_tx xid8, p_to_position bigint, p_parts integer, p_part integer)
 RETURNS void
 LANGUAGE plpgsql
 SET enable_nestloop TO 'off'
 SET work_mem TO '256MB'
AS $function$
begin
  with requests as (
    select e.data->>'requestId' as request_id, e.data->>'requesterId' as requester_id,
           e.data->>'payerId' as payer_id, (e.data->>'amountPaise')::bigint as amount_paise,
           e.data->>'reference' as reference, e.recorded_at, e.position
      from ledger.events e
     where e.type = 'MoneyRequested'
       and (e.tx_id, e.position) <= (p_to_tx, p_to_position)
       and projector.account_part(e.data->>'requestId', p_parts) = p_part
  ),
  answers as (
    select distinct on (e.data->>'requestId') e.data->>'requestId' as request_id,
           case e.type when 'MoneyRequestAccepted' then 'accepted' else 'rejected' end as status,
           e.recorded_at
      from ledger.events e
     where e.type in ('MoneyRequestAccepted', 'MoneyRequestRejected')
       and (e.tx_id, e.position) <= (p_to_tx, p_to_position)
       and projector.account_part(e.data->>'requestId', p_parts) = p_part
     order by e.data->>'requestId', e.tx_id desc, e.position desc
  ),
  names as (
    select e.stream_id, e.data->>'displayName' as display_name
      from ledger.events e
     where e.type = 'WalletOpened' and e.stream_version = 0
  )
  insert into read_rebuild_money_requests.money_requests (request_id, requester_id, requester_name, payer_id,
                                   payer_name, amount_paise, reference, status, created_at, updated_at, position)
  select r.request_id, r.requester_id, coalesce(rn.display_name, r.requester_id), r.payer_id,
         coalesce(pn.display_name, r.payer_id), r.amount_paise, r.reference,
         coalesce(a.status, 'pending'), r.recorded_at, coalesce(a.recorded_at, r.recorded_at), r.position
    from requests r
    left join names rn on rn.stream_id = 'wallet-' || r.requester_id
    left join names pn on pn.stream_id = 'wallet-' || r.payer_id
    left join answers a on a.request_id = r.request_id;
end
$function$;

CREATE OR REPLACE FUNCTION projector.bulk_replay_statement_days(p_to_tx xid8, p_to_position bigint, p_parts integer, p_part integer)
 RETURNS void
 LANGUAGE plpgsql
 SET enable_nestloop TO 'off'
 SET work_mem TO '256MB'
AS $function$
begin
  insert into read_rebuild_statement_days.statement_days
         (account_id, day, money_in_paise, money_out_paise, closing_balance_paise, postings_count)
  select d.account_id, d.day, d.money_in, d.money_out,
         (sum(d.net) over (partition by d.account_id order by d.day))::bigint, d.postings
    from (select p.account_id, (e.recorded_at at time zone 'Asia/Kolkata')::date as day,
                 coalesce(sum(p.amount) filter (where p.amount > 0), 0)::bigint as money_in,
                 coalesce(-sum(p.amount) filter (where p.amount < 0), 0)::bigint as money_out,
                 sum(p.amount) as net, count(*)::bigint as postings
            from ledger.postings p
            join ledger.events e on e.position = p.position
           where p.account_seq is not null
             and (e.tx_id, e.position) <= (p_to_tx, p_to_position)
             and projector.account_part(p.account_id, p_parts) = p_part
           group by 1, 2) d;
end
$function$;

CREATE OR REPLACE FUNCTION projector.events_in_range(p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint)
 RETURNS SETOF ledger.events
 LANGUAGE plpgsql
 STABLE ROWS 20000
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
AS $function$
begin
  return query
    select * from ledger.events e
     where e.tx_id between p_from_tx and p_to_tx
       and (e.tx_id, e.position) > (p_from_tx, p_from_position)
       and (e.tx_id, e.position) <= (p_to_tx, p_to_position)
     order by e.tx_id, e.position;
end
$function$;

CREATE OR REPLACE FUNCTION projector.funding_name(p_account_id text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  select case p_account_id
    when 'funding:bank_transfer' then 'Bank transfer'
    when 'funding:upi' then 'UPI'
    when 'funding:card' then 'Card'
  end
$function$;

CREATE OR REPLACE FUNCTION projector.has_events_after(p_tx xid8, p_position bigint)
 RETURNS boolean
 LANGUAGE sql
 STABLE
AS $function$
  select (select e.position from ledger.events e
           where (e.tx_id, e.position) > (p_tx, p_position)
           order by e.tx_id, e.position
           limit 1) is not null
$function$;

CREATE OR REPLACE FUNCTION projector.history_funding(p_type text, p_data jsonb)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN (p_type = ANY (ARRAY['DepositRequested'::text, 'DepositReversed'::text])) THEN ('funding:'::text || (p_data ->> 'method'::text)) ELSE NULL::text END;

CREATE OR REPLACE FUNCTION projector.history_method(p_type text, p_data jsonb)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
RETURN CASE p_type WHEN 'TransferCompleted'::text THEN 'transfer'::text WHEN 'MoneyRequestAccepted'::text THEN 'request'::text WHEN 'DepositRequested'::text THEN (p_data ->> 'method'::text) ELSE 'reversal'::text END;

CREATE OR REPLACE FUNCTION projector.history_receiver(p_type text, p_data jsonb)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
RETURN CASE p_type WHEN 'TransferCompleted'::text THEN (p_data ->> 'toAccountId'::text) WHEN 'MoneyRequestAccepted'::text THEN (p_data ->> 'requesterId'::text) WHEN 'TransferReversed'::text THEN (p_data ->> 'fromAccountId'::text) WHEN 'MoneyRequestPaymentReversed'::text THEN (p_data ->> 'payerId'::text) WHEN 'DepositRequested'::text THEN (p_data ->> 'walletId'::text) WHEN 'DepositReversed'::text THEN ('funding:'::text || (p_data ->> 'method'::text)) ELSE NULL::text END;

CREATE OR REPLACE FUNCTION projector.history_reference(p_type text, p_data jsonb)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN (p_type = ANY (ARRAY['TransferReversed'::text, 'DepositReversed'::text, 'MoneyRequestPaymentReversed'::text])) THEN ('Reversal: '::text || (p_data ->> 'reason'::text)) ELSE (p_data ->> 'reference'::text) END;

CREATE OR REPLACE FUNCTION projector.history_sender(p_type text, p_data jsonb)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
RETURN CASE p_type WHEN 'TransferCompleted'::text THEN (p_data ->> 'fromAccountId'::text) WHEN 'MoneyRequestAccepted'::text THEN (p_data ->> 'payerId'::text) WHEN 'TransferReversed'::text THEN (p_data ->> 'toAccountId'::text) WHEN 'MoneyRequestPaymentReversed'::text THEN (p_data ->> 'requesterId'::text) ELSE (p_data ->> 'walletId'::text) END;

CREATE OR REPLACE FUNCTION projector.key_earlier_history(p_rows integer)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
declare
  v_account text;
  v_keyed integer;
begin
  select account_id into v_account from read.history_keying order by account_id limit 1 for update skip locked;
  if not found then
    return 0;
  end if;
  update read.history h set keyed = true
   where (h.account_id, h.stream_id, h.position) in (
           select account_id, stream_id, position from read.history
            where account_id = v_account and not keyed limit p_rows);
  get diagnostics v_keyed = row_count;
  if v_keyed < p_rows then
    delete from read.history_keying where account_id = v_account;
    return v_keyed + 1;
  end if;
  return v_keyed;
end
$function$;

CREATE OR REPLACE FUNCTION projector.next_range(p_after_tx xid8, p_after_position bigint, p_limit integer)
 RETURNS TABLE(tx_id xid8, "position" bigint, events integer, types text[])
 LANGUAGE sql
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
AS $function$
  with n as materialized (
    select e.tx_id, e.position, e.type from ledger.events e
     where (e.tx_id, e.position) > (p_after_tx, p_after_position)
       and e.tx_id < pg_snapshot_xmin(pg_current_snapshot())
     order by e.tx_id, e.position
     limit p_limit
  )
  select l.tx_id, l.position, (select count(*)::integer from n), array(select distinct n.type from n)
    from n l
   order by l.tx_id desc, l.position desc
   limit 1
$function$;

CREATE OR REPLACE FUNCTION projector.range_types(p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint)
 RETURNS text[]
 LANGUAGE sql
 STABLE
AS $function$
  select array(select distinct e.type
                 from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e)
$function$;

CREATE OR REPLACE FUNCTION projector.run_batch(p_projection text, p_limit integer)
 RETURNS TABLE(busy boolean, applied integer, tx_id xid8, "position" bigint, more boolean)
 LANGUAGE sql
 SET jit TO 'off'
AS $function$
  select r.projection is null, coalesce(r.applied, 0), r.tx_id, r.position, coalesce(r.more, false)
    from (select) as one
    left join projector.run_round(array[p_projection], p_limit) r on true
$function$;

CREATE OR REPLACE FUNCTION projector.run_round(p_projections text[], p_limit integer)
 RETURNS TABLE(projection text, applied integer, tx_id xid8, "position" bigint, more boolean)
 LANGUAGE plpgsql
 SET jit TO 'off'
AS $function$
declare
  v_from_tx xid8;
  v_from_position bigint;
  v_to_tx xid8;
  v_to_position bigint;
  v_events integer := 0;
  v_types text[];
  v_behind text[];
  v_name text;
  v_locked text[];
  v_ahead_tx xid8;
  v_ahead_position bigint;
begin
  -- Locked in name order, so that two rounds never wait on each other's rows in a cycle. Each
  -- statement of a round costs tens of microseconds before it does anything, so a round reads
  -- what it needs here and answers from it at the end: the earliest checkpoint (the range
  -- starts there) and the earliest of those ahead of it (the round leaves them as they are).
  with locked as materialized (
    select c.projection, c.tx_id, c.position from read.checkpoints c
     where c.projection = any (p_projections)
     order by c.projection
       for update skip locked
  ),
  earliest as (select l.tx_id, l.position from locked l order by l.tx_id, l.position limit 1),
  ahead as (
    select l.tx_id, l.position from locked l, earliest e
     where (l.tx_id, l.position) > (e.tx_id, e.position)
     order by l.tx_id, l.position limit 1
  )
  select e.tx_id, e.position,
         array(select l.projection from locked l where (l.tx_id, l.position) = (e.tx_id, e.position) order by 1),
         array(select l.projection from locked l order by 1),
         (select a.tx_id from ahead a), (select a.position from ahead a)
    into v_from_tx, v_from_position, v_behind, v_locked, v_ahead_tx, v_ahead_position
    from earliest e;
  if v_locked is null then
    return;
  end if;

  select r.tx_id, r.position, r.events, r.types into v_to_tx, v_to_position, v_events, v_types
    from projector.next_range(v_from_tx, v_from_position, p_limit) r;
  if coalesce(v_events, 0) > 0 then
    foreach v_name in array v_behind loop
      execute format('select projector.%I($1, $2, $3, $4, $5)', 'apply_' || v_name || '__live')
        using v_from_tx, v_from_position, v_to_tx, v_to_position, v_types;
    end loop;
    perform projector.save_checkpoint(v_behind, v_to_tx, v_to_position, v_events, true);
  else
    v_events := 0;
    v_to_tx := v_from_tx;
    v_to_position := v_from_position;
  end if;

  -- The earliest checkpoint after this round: the range's end, or a projection left ahead of
  -- the range's start but behind its end.
  if v_ahead_tx is not null and (v_ahead_tx, v_ahead_position) < (v_to_tx, v_to_position) then
    v_to_tx := v_ahead_tx;
    v_to_position := v_ahead_position;
  end if;
  return query
    select c.projection, case when c.projection = any (v_behind) then v_events else 0 end, c.tx_id, c.position,
           projector.has_events_after(v_to_tx, v_to_position)
      from read.checkpoints c where c.projection = any (v_locked)
     order by c.projection;
end
$function$;

CREATE OR REPLACE FUNCTION projector.save_checkpoint(p_projections text[], p_tx xid8, p_position bigint, p_applied bigint, p_add boolean)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
begin
  update read.checkpoints
     set tx_id = p_tx, position = p_position,
         events_applied = case when p_add then events_applied + p_applied else p_applied end,
         updated_at = now(), last_error = null, last_error_at = null
   where projection = any (p_projections);
  perform pg_notify('projection_checkpoint', json_build_object(
            'projection', n.projection, 'checkpoint', p_tx::text || '.' || p_position::text)::text)
     from unnest(p_projections) as n(projection);
end
$function$;

CREATE OR REPLACE FUNCTION projector.statement_deltas(p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint)
 RETURNS TABLE(account_id text, day date, money_in bigint, money_out bigint, net bigint, postings bigint)
 LANGUAGE sql
 STABLE ROWS 2000
AS $function$
  select p.account_id, (e.recorded_at at time zone 'Asia/Kolkata')::date,
         coalesce(sum(p.amount) filter (where p.amount > 0), 0)::bigint,
         coalesce(-sum(p.amount) filter (where p.amount < 0), 0)::bigint,
         sum(p.amount)::bigint, count(*)::bigint
    from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
    cross join lateral (select * from ledger.postings p where p.position = e.position offset 0) p
   where p.account_seq is not null
   group by 1, 2
$function$;

CREATE OR REPLACE FUNCTION projector.transaction_id(p_type text, p_data jsonb)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  select case p_type
    when 'TransferCompleted' then p_data->>'transferId'
    when 'TransferReversed' then p_data->>'transferId'
    when 'DepositRequested' then p_data->>'depositId'
    when 'DepositSettled' then p_data->>'depositId'
    when 'DepositFailed' then p_data->>'depositId'
    when 'DepositReversed' then p_data->>'depositId'
    when 'MoneyRequested' then p_data->>'requestId'
    when 'MoneyRequestAccepted' then p_data->>'requestId'
    when 'MoneyRequestRejected' then p_data->>'requestId'
    when 'MoneyRequestPaymentReversed' then p_data->>'requestId'
    when 'WalletOpened' then p_data->>'accountId'
  end
$function$;

CREATE OR REPLACE FUNCTION read.amount_search_key(p_account text, p_amount_paise bigint)
 RETURNS bigint[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN (p_amount_paise IS NULL) THEN '{}'::bigint[] ELSE ARRAY[(((hashtext(p_account))::bigint << 32) | ((hashtext(('#'::text || (p_amount_paise)::text)))::bigint & '4294967295'::bigint))] END;

CREATE OR REPLACE FUNCTION read.history_keys_after_rows()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
RETURN 2000;

CREATE OR REPLACE FUNCTION read.history_search_keys(p_account text, p_reference text, p_name text, p_amount_paise bigint)
 RETURNS bigint[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
RETURN (read.search_keys(p_account, ((COALESCE(p_reference, ''::text) || ' '::text) || COALESCE(p_name, ''::text))) || read.amount_search_key(p_account, p_amount_paise));

CREATE OR REPLACE FUNCTION read.search_keys(p_account text, p_text text)
 RETURNS bigint[]
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE STRICT
AS $function$
declare
  v_account int8 := hashtext(p_account)::int8 << 32;
  v_keys int8[] := '{}';
  v_trigram text;
begin
  foreach v_trigram in array public.show_trgm(p_text) loop
    if strpos(v_trigram, ' ') = 0 then
      v_keys := array_append(v_keys, v_account | (hashtext(v_trigram)::int8 & 4294967295));
    end if;
  end loop;
  return v_keys;
end
$function$;

CREATE OR REPLACE FUNCTION read.search_text_keys(p_account text, p_text text)
 RETURNS bigint[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE STRICT
RETURN ARRAY(SELECT (((hashtext(search_text_keys.p_account))::bigint << 32) | ((hashtext(inner_trigrams.t))::bigint & '4294967295'::bigint)) FROM (SELECT unnest(show_trgm(search_text_keys.p_text)) AS unnest EXCEPT SELECT unnest(show_trgm(substr(search_text_keys.p_text, i.i, 2))) AS unnest FROM generate_series(1, char_length(search_text_keys.p_text)) i(i)) inner_trigrams(t));

CREATE OR REPLACE FUNCTION replay.build_rebuild_index(p_projection text, p_table text, p_index text)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
declare
  v_schema text := replay.rebuild_schema(p_projection);
  v_live regclass;
  v_live_index oid;
  v_original text;
  v_definition text;
  v_constraint text;
  v_column record;
begin
  perform replay.check_table(p_projection, p_table);
  v_live := format('read.%I', p_table)::regclass;
  select i.indexrelid, pg_get_indexdef(i.indexrelid), pg_get_constraintdef(k.oid) into v_live_index, v_original, v_constraint
    from pg_index i
    join pg_class c on c.oid = i.indexrelid
    left join pg_constraint k on k.conindid = i.indexrelid and k.conrelid = i.indrelid and k.contype in ('p', 'u')
   where i.indrelid = v_live and c.relname = p_index;
  if not found then
    raise exception 'replay: read.% has no index %', p_table, p_index using errcode = '22023';
  end if;
  if v_constraint is not null then
    if not exists (select 1 from pg_constraint where conrelid = format('%I.%I', v_schema, p_table)::regclass and conname = p_index) then
      execute format('alter table %I.%I add constraint %I %s', v_schema, p_table, p_index, v_constraint);
    end if;
    return;
  end if;
  v_definition := replace(v_original, ' ON ' || v_live::text || ' ', ' ON ' || quote_ident(v_schema) || '.' || quote_ident(p_table) || ' ');
  if v_definition = v_original then
    raise exception 'replay: cannot retarget index % (%)', p_index, v_original;
  end if;
  execute v_definition;
  for v_column in
    select a.attnum, a.attstattarget from pg_attribute a
     where a.attrelid = v_live_index and a.attstattarget >= 0
     order by a.attnum
  loop
    execute format('alter index %I.%I alter column %s set statistics %s', v_schema, p_index, v_column.attnum, v_column.attstattarget);
  end loop;
end
$function$;

CREATE OR REPLACE FUNCTION replay.check_table(p_projection text, p_table text)
 RETURNS void
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
begin
  if not exists (select 1 from replay.projection_tables where projection = p_projection and table_name = p_table) then
    raise exception 'replay: % is not a table of projection %', p_table, p_projection using errcode = '22023';
  end if;
end
$function$;

CREATE OR REPLACE FUNCTION replay.create_rebuild_table(p_projection text, p_table text, p_with_keys boolean)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
declare
  v_schema text := replay.rebuild_schema(p_projection);
  v_key record;
  v_column record;
begin
  perform replay.check_table(p_projection, p_table);
  execute format('create table %I.%I (like read.%I including all excluding indexes)', v_schema, p_table, p_table);
  for v_column in
    select a.attname, a.attstattarget from pg_attribute a
     where a.attrelid = format('read.%I', p_table)::regclass and a.attnum > 0 and not a.attisdropped
       and a.attstattarget >= 0
     order by a.attnum
  loop
    execute format('alter table %I.%I alter column %I set statistics %s', v_schema, p_table, v_column.attname, v_column.attstattarget);
  end loop;
  if p_with_keys then
    for v_key in
      select k.conname, pg_get_constraintdef(k.oid) as definition from pg_constraint k
       where k.conrelid = format('read.%I', p_table)::regclass and k.contype in ('p', 'u')
       order by k.conname
    loop
      execute format('alter table %I.%I add constraint %I %s', v_schema, p_table, v_key.conname, v_key.definition);
    end loop;
  end if;
  execute format('grant select, insert, update, delete on table %I.%I to wallet_runtime', v_schema, p_table);
end
$function$;

CREATE OR REPLACE FUNCTION replay.drop_rebuild_schema(p_projection text)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
begin
  execute format('drop schema %I', replay.rebuild_schema(p_projection));
end
$function$;

CREATE OR REPLACE FUNCTION replay.rebuild_schema(p_projection text)
 RETURNS text
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
begin
  if not exists (select 1 from replay.projection_tables where projection = p_projection) then
    raise exception 'replay: unknown projection %', p_projection using errcode = '22023';
  end if;
  return 'read_rebuild_' || p_projection;
end
$function$;

CREATE OR REPLACE FUNCTION replay.reset_rebuild_schema(p_projection text)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
declare
  v_schema text := replay.rebuild_schema(p_projection);
begin
  execute format('drop schema if exists %I cascade', v_schema);
  execute format('create schema %I', v_schema);
  execute format('grant usage on schema %I to wallet_runtime', v_schema);
end
$function$;

CREATE OR REPLACE FUNCTION replay.swap_in_table(p_projection text, p_table text)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
declare
  v_schema text := replay.rebuild_schema(p_projection);
begin
  perform replay.check_table(p_projection, p_table);
  execute format('drop table read.%I', p_table);
  execute format('alter table %I.%I set schema read', v_schema, p_table);
end
$function$;

grant execute on function ledger.append(p_stream_id text, p_expected_version integer, p_events jsonb, p_metadata jsonb, p_idempotency jsonb, p_result jsonb) to wallet_runtime;
grant execute on function ledger.append_batch(p_appends jsonb) to wallet_runtime;
grant execute on function ledger.assert_postings_balanced() to wallet_runtime;
grant execute on function ledger.expire_idempotency_keys(p_older_than interval, p_limit integer) to wallet_runtime;
grant execute on function ledger.idempotency_digest(p_actor text, p_key text) to wallet_runtime;
grant execute on function ledger.open_wallet_account(p_account_id text) to wallet_runtime;
grant execute on function ledger.recorded_result(p_result jsonb) to wallet_runtime;
grant execute on function ledger.reject_account_removal() to wallet_runtime;
grant execute on function ledger.reject_mutation() to wallet_runtime;
grant execute on function projector.account_part(p_account_id text, p_parts integer) to wallet_runtime;
grant execute on function projector.apply_accounts(p_schema text, p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint) to wallet_runtime;
grant execute on function projector.apply_accounts__live(p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint, p_types text[]) to wallet_runtime;
grant execute on function projector.apply_accounts__rebuild(p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint, p_types text[]) to wallet_runtime;
grant execute on function projector.apply_history(p_schema text, p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint) to wallet_runtime;
grant execute on function projector.apply_history__live(p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint, p_types text[]) to wallet_runtime;
grant execute on function projector.apply_history__rebuild(p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint, p_types text[]) to wallet_runtime;
grant execute on function projector.apply_money_requests(p_schema text, p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint) to wallet_runtime;
grant execute on function projector.apply_money_requests__live(p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint, p_types text[]) to wallet_runtime;
grant execute on function projector.apply_money_requests__rebuild(p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint, p_types text[]) to wallet_runtime;
grant execute on function projector.apply_statement_days(p_schema text, p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint) to wallet_runtime;
grant execute on function projector.apply_statement_days__live(p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint, p_types text[]) to wallet_runtime;
grant execute on function projector.apply_statement_days__rebuild(p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint, p_types text[]) to wallet_runtime;
grant execute on function projector.assert_target(p_schema text, p_projection text) to wallet_runtime;
grant execute on function projector.bulk_replay_accounts(p_to_tx xid8, p_to_position bigint, p_parts integer, p_part integer) to wallet_runtime;
grant execute on function projector.bulk_replay_balances(p_to_tx xid8, p_to_position bigint, p_parts integer, p_part integer) to wallet_runtime;
grant execute on function projector.bulk_replay_history(p_to_tx xid8, p_to_position bigint, p_parts integer, p_part integer) to wallet_runtime;
grant execute on function projector.bulk_replay_money_requests(p_to_tx xid8, p_to_position bigint, p_parts integer, p_part integer) to wallet_runtime;
grant execute on function projector.bulk_replay_statement_days(p_to_tx xid8, p_to_position bigint, p_parts integer, p_part integer) to wallet_runtime;
grant execute on function projector.events_in_range(p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint) to wallet_runtime;
grant execute on function projector.funding_name(p_account_id text) to wallet_runtime;
grant execute on function projector.has_events_after(p_tx xid8, p_position bigint) to wallet_runtime;
grant execute on function projector.history_funding(p_type text, p_data jsonb) to wallet_runtime;
grant execute on function projector.history_method(p_type text, p_data jsonb) to wallet_runtime;
grant execute on function projector.history_receiver(p_type text, p_data jsonb) to wallet_runtime;
grant execute on function projector.history_reference(p_type text, p_data jsonb) to wallet_runtime;
grant execute on function projector.history_sender(p_type text, p_data jsonb) to wallet_runtime;
grant execute on function projector.key_earlier_history(p_rows integer) to wallet_runtime;
grant execute on function projector.next_range(p_after_tx xid8, p_after_position bigint, p_limit integer) to wallet_runtime;
grant execute on function projector.range_types(p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint) to wallet_runtime;
grant execute on function projector.run_batch(p_projection text, p_limit integer) to wallet_runtime;
grant execute on function projector.run_round(p_projections text[], p_limit integer) to wallet_runtime;
grant execute on function projector.save_checkpoint(p_projections text[], p_tx xid8, p_position bigint, p_applied bigint, p_add boolean) to wallet_runtime;
grant execute on function projector.statement_deltas(p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint) to wallet_runtime;
grant execute on function projector.transaction_id(p_type text, p_data jsonb) to wallet_runtime;
grant execute on function read.amount_search_key(p_account text, p_amount_paise bigint) to PUBLIC;
grant execute on function read.history_keys_after_rows() to PUBLIC;
grant execute on function read.history_search_keys(p_account text, p_reference text, p_name text, p_amount_paise bigint) to PUBLIC;
grant execute on function read.search_keys(p_account text, p_text text) to PUBLIC;
grant execute on function read.search_text_keys(p_account text, p_text text) to PUBLIC;
grant execute on function replay.build_rebuild_index(p_projection text, p_table text, p_index text) to wallet_runtime;
grant execute on function replay.check_table(p_projection text, p_table text) to wallet_runtime;
grant execute on function replay.create_rebuild_table(p_projection text, p_table text, p_with_keys boolean) to wallet_runtime;
grant execute on function replay.drop_rebuild_schema(p_projection text) to wallet_runtime;
grant execute on function replay.rebuild_schema(p_projection text) to wallet_runtime;
grant execute on function replay.reset_rebuild_schema(p_projection text) to wallet_runtime;
grant execute on function replay.swap_in_table(p_projection text, p_table text) to wallet_runtime;
grant usage on schema audit to wallet_runtime;
grant usage on schema identity to wallet_runtime;
grant usage on schema ledger to wallet_runtime;
grant usage on schema projector to wallet_runtime;
grant usage on schema ratelimit to wallet_runtime;
grant usage on schema read to wallet_runtime;
grant usage on schema replay to wallet_runtime;
grant select, usage on sequence audit.admin_actions_id_seq to wallet_runtime;
grant select, usage on sequence audit.replay_runs_id_seq to wallet_runtime;
grant select, usage on sequence audit.solo_money_actions_id_seq to wallet_runtime;
grant select, usage on sequence audit.verify_runs_id_seq to wallet_runtime;
grant insert, select on table audit.admin_actions to wallet_runtime;
grant insert, select, update on table audit.approval_requests to wallet_runtime;
grant insert, select, update on table audit.disputes to wallet_runtime;
grant insert, select, update on table audit.replay_runs to wallet_runtime;
grant insert, select on table audit.solo_money_actions to wallet_runtime;
grant insert, select on table audit.verify_runs to wallet_runtime;
grant delete, insert, select, update on table identity.code_issues to wallet_runtime;
grant delete, insert, select, update on table identity.one_time_codes to wallet_runtime;
grant delete, insert, select, update on table identity.users to wallet_runtime;
grant select on table ledger.accounts to wallet_runtime;
grant select on table ledger.events to wallet_runtime;
grant select on table ledger.idempotency_keys to wallet_runtime;
grant select on table ledger.postings to wallet_runtime;
grant delete, insert, select, update on table ratelimit.counters to wallet_runtime;
grant delete, insert, select, update on table read.balances to wallet_runtime;
grant delete, insert, select, update on table read.checkpoints to wallet_runtime;
grant delete, insert, select, update on table read.directory to wallet_runtime;
grant delete, insert, select, update on table read.event_actors to wallet_runtime;
grant delete, insert, select, update on table read.history to wallet_runtime;
grant delete, insert, select, update on table read.history_counts to wallet_runtime;
grant delete, insert, select, update on table read.history_keying to wallet_runtime;
grant delete, insert, select, update on table read.money_requests to wallet_runtime;
grant delete, insert, select, update on table read.statement_days to wallet_runtime;
grant delete, insert, select, update on table read.statement_lines to wallet_runtime;
