-- ledger.append: one command's append (ledger/event-store/append.ts), for appends inside a
-- caller's transaction and for a batch retried command by command. Same rules and signature as
-- ledger.append_batch's, raising instead of returning an outcome, with the same SQLSTATEs:
-- WL001 insufficient funds, WL002 unknown account, WL003 stream version conflict, WL004
-- idempotency key reused for a different request.
-- - no PL/pgSQL exception block around the event insert (each one is a subtransaction): a
--   taken stream version fails with the unique violation itself (23505 on
--   one_event_per_stream_version), which the ledger maps to stream_conflict;
-- - the idempotency key is read first and written once, with its result: a concurrent request
--   with the same key waits on the primary key, fails with 23505 on idempotency_keys_pkey,
--   rolls back whole, and the ledger retries it into the replay branch;
-- - one event's postings are applied in account order, so its wallet updates take their locks
--   in id order by themselves; only a multi-event append locks its wallets up front;
-- - a wallet head is updated directly; the account's kind is read only when the update found
--   nothing, to tell a funding account, an unknown account and insufficient funds apart.
-- Runs as its owner, with a search_path the caller cannot change.
create or replace function ledger.append(
  p_stream_id text,
  p_expected_version integer,
  p_events jsonb,
  p_metadata jsonb,
  p_idempotency jsonb,
  p_result jsonb
) returns jsonb
language plpgsql security definer set search_path = pg_catalog, pg_temp as $fn$
declare
  v_previous jsonb;
  v_previous_hash text;
  v_event jsonb;
  v_version integer := p_expected_version;
  v_position bigint;
  v_tx_id xid8;
  v_positions bigint[] := '{}';
  v_kind text;
  v_balance bigint;
  v_seq bigint;
  v_result jsonb;
  v_wallets text[];
  v_lines integer;
  v_first integer;
  v_accounts text[];
  v_amounts bigint[];
  v_seqs bigint[];
  v_balances bigint[];
begin
  if p_idempotency is not null then
    select result, request_hash into v_previous, v_previous_hash
      from ledger.idempotency_keys
     where actor_id = p_idempotency->>'actor' and key = p_idempotency->>'key';
    if found then
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

  -- Several events: lock all their wallets in id order first, so two appends touching the
  -- same wallets queue instead of deadlocking. One event needs no pre-lock: its postings
  -- below are applied in account order.
  if jsonb_array_length(p_events) > 1 then
    select array_agg(distinct a.id order by a.id) into v_wallets
      from jsonb_array_elements(p_events) e,
           jsonb_array_elements(coalesce(e->'postings', '[]'::jsonb)) p
      join ledger.accounts a on a.id = p->>'account' and a.kind = 'wallet';
    if v_wallets is not null then
      perform 1 from ledger.accounts where id = any(v_wallets) order by id for update;
    end if;
  end if;

  -- Events first, then the idempotency key with its result, and the wallet heads last: a
  -- head's row lock is held from its update to commit, so as little as possible runs after it.
  for v_index in 0 .. jsonb_array_length(p_events) - 1 loop
    v_version := v_version + 1;
    insert into ledger.events (stream_id, stream_version, type, data, metadata)
      values (p_stream_id, v_version, p_events->v_index->>'type', p_events->v_index->'data', coalesce(p_metadata, '{}'::jsonb))
      returning position, tx_id into v_position, v_tx_id;
    v_positions := v_positions || v_position;
  end loop;

  v_result := coalesce(p_result, '{}'::jsonb) || jsonb_build_object(
    'streamId', p_stream_id,
    'streamVersion', v_version,
    'positions', to_jsonb(v_positions),
    'checkpoint', v_tx_id::text || '.' || v_position::text,
    'replayed', false
  );
  if p_idempotency is not null then
    insert into ledger.idempotency_keys (actor_id, key, command, request_hash, result)
      values (p_idempotency->>'actor', p_idempotency->>'key', p_idempotency->>'command', p_idempotency->>'hash', v_result);
  end if;

  for v_index in 0 .. jsonb_array_length(p_events) - 1 loop
    v_event := p_events->v_index;
    v_position := v_positions[v_index + 1];
    v_lines := coalesce(jsonb_array_length(v_event->'postings'), 0);
    continue when v_lines = 0;
    if v_lines = 2 then
      -- The common case (a transfer, a deposit): two lines put in account order by plain
      -- expressions, which PL/pgSQL evaluates without starting a query.
      if v_event->'postings'->0->>'account' <= v_event->'postings'->1->>'account' then
        v_first := 0;
      else
        v_first := 1;
      end if;
      v_accounts := array[v_event->'postings'->v_first->>'account', v_event->'postings'->(1 - v_first)->>'account'];
      v_amounts := array[(v_event->'postings'->v_first->>'amount')::bigint, (v_event->'postings'->(1 - v_first)->>'amount')::bigint];
    else
      select array_agg(value->>'account' order by value->>'account'),
             array_agg((value->>'amount')::bigint order by value->>'account')
        into v_accounts, v_amounts
        from jsonb_array_elements(v_event->'postings');
    end if;
    v_seqs := '{}';
    v_balances := '{}';
    for v_line in 1 .. array_length(v_accounts, 1) loop
      update ledger.accounts
         set balance = balance + v_amounts[v_line], seq = seq + 1
       where id = v_accounts[v_line] and kind = 'wallet' and (allow_negative or balance + v_amounts[v_line] >= 0)
      returning balance, seq into v_balance, v_seq;
      if not found then
        select kind into v_kind from ledger.accounts where id = v_accounts[v_line];
        if v_kind is null then
          raise exception 'unknown account %', v_accounts[v_line] using errcode = 'WL002';
        elsif v_kind = 'wallet' then
          raise exception 'insufficient funds in %', v_accounts[v_line] using errcode = 'WL001';
        end if;
        -- A funding account: no maintained head.
        v_balance := null;
        v_seq := null;
      end if;
      v_seqs := v_seqs || v_seq;
      v_balances := v_balances || v_balance;
    end loop;
    insert into ledger.postings (position, account_id, amount, account_seq, balance_after)
      select v_position, line.account, line.amount, line.seq, line.balance
        from unnest(v_accounts, v_amounts, v_seqs, v_balances) as line(account, amount, seq, balance);
  end loop;
  return v_result;
end
$fn$;
revoke execute on function ledger.append(text, integer, jsonb, jsonb, jsonb, jsonb) from public;
