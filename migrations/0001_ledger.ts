/**
 * The ledger write model: events, their double-entry postings, account heads and
 * idempotency keys, with every invariant the database can hold enforced here.
 * See ARCHITECTURE.md, "Guarantees".
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
create schema ledger;

-- Account heads. Wallet heads carry the balance and a posting sequence, updated in the
-- same statement as the funds check. Funding accounts (money entering from outside, one
-- per deposit method) may go negative and have no maintained head: locking one row per
-- method would serialise every deposit; their balances come from postings.
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
);

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

create table ledger.postings (
  position bigint not null references ledger.events (position),
  account_id text not null references ledger.accounts (id),
  amount bigint not null check (amount <> 0),
  account_seq bigint,
  balance_after bigint,
  primary key (position, account_id),
  constraint one_posting_per_account_seq unique (account_id, account_seq)
);
create index postings_by_account on ledger.postings (account_id, position);

-- Every event's postings sum to zero: money is neither created nor destroyed. Deferred to
-- commit so an event's lines can be inserted one by one.
create function ledger.assert_event_balanced() returns trigger language plpgsql as $fn$
declare
  total numeric;
begin
  select sum(amount) into total from ledger.postings where position = new.position;
  if total <> 0 then
    raise exception 'postings of event % sum to % paise, not zero', new.position, total
      using errcode = 'WL010';
  end if;
  return null;
end
$fn$;
create constraint trigger postings_sum_to_zero
  after insert on ledger.postings
  deferrable initially deferred
  for each row execute function ledger.assert_event_balanced();

-- History is immutable: corrections are new events, never edits.
create function ledger.reject_mutation() returns trigger language plpgsql as $fn$
begin
  raise exception 'ledger.% is append-only: % is not allowed', tg_table_name, tg_op
    using errcode = 'WL011';
end
$fn$;
create trigger events_append_only before update or delete on ledger.events
  for each row execute function ledger.reject_mutation();
create trigger events_no_truncate before truncate on ledger.events
  for each statement execute function ledger.reject_mutation();
create trigger postings_append_only before update or delete on ledger.postings
  for each row execute function ledger.reject_mutation();
create trigger postings_no_truncate before truncate on ledger.postings
  for each statement execute function ledger.reject_mutation();

-- A repeated command (same actor, same key) returns its first result and appends nothing.
create table ledger.idempotency_keys (
  actor_id text not null,
  key text not null check (length(key) between 1 and 200),
  command text not null,
  request_hash text not null,
  result jsonb,
  recorded_at timestamptz not null default now(),
  primary key (actor_id, key)
);

insert into ledger.accounts (id, kind, allow_negative) values
  ('funding:bank_transfer', 'funding', true),
  ('funding:upi', 'funding', true),
  ('funding:card', 'funding', true);
`.execute(db);

  await sql`
-- The one way events are appended. One call: idempotency claim, expected-version check,
-- wallet rows locked in id order, heads updated with the funds check in the same statement,
-- events and postings inserted, the result recorded under the idempotency key.
-- Errors carry stable SQLSTATEs that the ledger maps to rejections:
--   WL001 insufficient funds, WL002 unknown account, WL003 stream version conflict,
--   WL004 idempotency key reused for a different request.
create function ledger.append(
  p_stream_id text,
  p_expected_version integer,
  p_events jsonb,
  p_metadata jsonb,
  p_idempotency jsonb,
  p_result jsonb
) returns jsonb language plpgsql as $fn$
declare
  v_claimed boolean;
  v_previous jsonb;
  v_previous_hash text;
  v_event jsonb;
  v_posting jsonb;
  v_version integer := p_expected_version;
  v_position bigint;
  v_tx_id xid8;
  v_positions bigint[] := '{}';
  v_kind text;
  v_balance bigint;
  v_seq bigint;
  v_amount bigint;
  v_result jsonb;
  v_wallets text[];
begin
  if p_idempotency is not null then
    insert into ledger.idempotency_keys (actor_id, key, command, request_hash)
      values (p_idempotency->>'actor', p_idempotency->>'key', p_idempotency->>'command', p_idempotency->>'hash')
      on conflict do nothing;
    get diagnostics v_claimed = row_count;
    if not v_claimed then
      select result, request_hash into v_previous, v_previous_hash
        from ledger.idempotency_keys
        where actor_id = p_idempotency->>'actor' and key = p_idempotency->>'key';
      if v_previous_hash <> p_idempotency->>'hash' or v_previous is null then
        raise exception 'idempotency key % was used for another request', p_idempotency->>'key'
          using errcode = 'WL004';
      end if;
      return v_previous || jsonb_build_object('replayed', true);
    end if;
  end if;

  if p_expected_version >= 0 and not exists (
    select 1 from ledger.events where stream_id = p_stream_id and stream_version = p_expected_version
  ) then
    raise exception 'stream % is not at version %', p_stream_id, p_expected_version using errcode = 'WL003';
  end if;

  -- Lock every wallet this append touches, in id order, before changing any: two transfers
  -- between the same pair in opposite directions then queue instead of deadlocking.
  select array_agg(distinct a.id order by a.id) into v_wallets
    from jsonb_array_elements(p_events) e,
         jsonb_array_elements(coalesce(e->'postings', '[]'::jsonb)) p
    join ledger.accounts a on a.id = p->>'account' and a.kind = 'wallet';
  if v_wallets is not null then
    perform 1 from ledger.accounts where id = any(v_wallets) order by id for update;
  end if;

  for v_event in select * from jsonb_array_elements(p_events) loop
    v_version := v_version + 1;
    begin
      insert into ledger.events (stream_id, stream_version, type, data, metadata)
        values (p_stream_id, v_version, v_event->>'type', v_event->'data', coalesce(p_metadata, '{}'::jsonb))
        returning position, tx_id into v_position, v_tx_id;
    exception when unique_violation then
      raise exception 'stream % already has version %', p_stream_id, v_version using errcode = 'WL003';
    end;
    v_positions := v_positions || v_position;

    for v_posting in select * from jsonb_array_elements(coalesce(v_event->'postings', '[]'::jsonb))
        order by value->>'account' loop
      v_amount := (v_posting->>'amount')::bigint;
      select kind into v_kind from ledger.accounts where id = v_posting->>'account';
      if v_kind is null then
        raise exception 'unknown account %', v_posting->>'account' using errcode = 'WL002';
      elsif v_kind = 'wallet' then
        update ledger.accounts
           set balance = balance + v_amount, seq = seq + 1
         where id = v_posting->>'account' and (allow_negative or balance + v_amount >= 0)
        returning balance, seq into v_balance, v_seq;
        if not found then
          raise exception 'insufficient funds in %', v_posting->>'account' using errcode = 'WL001';
        end if;
      else
        v_balance := null;
        v_seq := null;
      end if;
      insert into ledger.postings (position, account_id, amount, account_seq, balance_after)
        values (v_position, v_posting->>'account', v_amount, v_seq, v_balance);
    end loop;
  end loop;

  v_result := coalesce(p_result, '{}'::jsonb) || jsonb_build_object(
    'streamId', p_stream_id,
    'streamVersion', v_version,
    'positions', to_jsonb(v_positions),
    'checkpoint', v_tx_id::text || '.' || v_position::text,
    'replayed', false
  );
  if p_idempotency is not null then
    update ledger.idempotency_keys set result = v_result
     where actor_id = p_idempotency->>'actor' and key = p_idempotency->>'key';
  end if;
  return v_result;
end
$fn$;
`.execute(db);
}
