-- ledger.append_batch: group commit. Appends the commands of many concurrent callers in one
-- transaction, one statement, each command with its own outcome (ledger/event-store/batch.ts
-- gathers them; ledger.append, in append.sql, is a batch of one). The money rules, written
-- only here and applied command by command in the batch's order against the wallet heads held
-- in memory:
-- - every wallet the batch touches is locked first, in id order (concurrent batches queue,
--   never deadlock), and read once;
-- - a command whose idempotency key was used answers its first result (or is refused when
--   the request differs); a twin inside the batch answers the first one's result;
-- - a command whose stream is not at its expected version is refused (stream conflict);
-- - a posting to an unknown account, or one that would take a wallet below zero, refuses
--   that command only: its tentative head changes are undone and the next command sees the
--   heads as they were;
-- - accepted commands' events, postings (with each wallet's running balance and sequence)
--   and idempotency records are then inserted by one statement each, and each touched wallet
--   head is updated once, however many commands moved it. Each statement a PL/pgSQL function
--   runs pays an executor start-up, so the work per command is array appends in memory.
-- The database keeps guarding what it guarded: the zero-sum statement trigger over the
-- postings insert (invariants.sql), wallet_never_negative, the append-only triggers, the
-- unique stream version and the idempotency records' unique digest. A unique violation
-- against a concurrent batch fails this batch whole (nothing of it commits); the caller then
-- appends its commands one by one.
-- The output is an array in input order: {ok: true, result} or {ok: false, code, message} with
-- the ledger's SQLSTATE-like codes (WL001 insufficient funds, WL002 unknown account, WL003
-- stream conflict, WL004 idempotency key reused for a different request).
-- Runs as its owner, with a search_path the caller cannot change: the runtime role may read
-- the ledger's tables but not write them.
-- Plans with sequential scans priced out (enable_seqscan = off), as the live projection rules
-- do (projections/engine/rules.sql): a session keeps its generic plans until an ANALYZE of a
-- table invalidates them, and one made while ledger.accounts held a few rows (a new
-- deployment, before autovacuum's first analyze) joined the heads' update to a sequential
-- scan of every wallet, and kept doing so for every batch as the wallets grew (with B1's
-- 10,000 wallets, one scan of all of them a batch: bench/RESULTS.md, "2026-12-01 05:42";
-- ledger/heads-plan.test.ts). Every statement here looks rows up by key.
-- A command's result as its first append answered it, from what its idempotency record keeps:
-- the command's own fields and its events' positions. The stream, its version and the
-- checkpoint are read back from the last event (records kept before they were left out carry
-- them already). Keeping only what the events do not say makes the record of a transfer 120
-- bytes smaller, in the table and in the WAL.
create or replace function ledger.recorded_result(p_result jsonb) returns jsonb
language sql stable security definer set search_path = pg_catalog, pg_temp as $fn$
  select case
    when jsonb_typeof(p_result) is distinct from 'object' or p_result ? 'streamId'
         or coalesce(jsonb_array_length(p_result->'positions'), 0) = 0 then p_result
    else p_result || (select jsonb_build_object('streamId', e.stream_id, 'streamVersion', e.stream_version,
                                                'checkpoint', e.tx_id::text || '.' || e.position::text, 'replayed', false)
                        from ledger.events e where e.position = (p_result->'positions'->>-1)::bigint)
  end
$fn$;

create or replace function ledger.append_batch(p_appends jsonb) returns jsonb
language plpgsql security definer set search_path = pg_catalog, pg_temp set enable_seqscan = off as $fn$
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
$fn$;
revoke execute on function ledger.append_batch(jsonb) from public;
