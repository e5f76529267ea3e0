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
--   runs pays an executor start-up, so the work per command is reading and setting elements
--   of typed arrays in memory, unpacked from the batch's jsonb once.
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
  -- The batch unpacked into typed arrays by three statements, so the money rules below read
  -- array elements, not jsonb paths: navigating the commands' jsonb, which copies each value
  -- it passes through, was most of the loop's cost. Commands (c_) in batch order; their events
  -- (ev_) one after another; the events' postings (ln_) one after another, each event's in
  -- account order, so that a command's lines are a run c_first_line .. + c_lines - 1.
  c_stream text[];
  c_expected integer[];
  c_events integer[];
  c_first_event integer[];
  c_lines integer[];
  c_first_line integer[];
  c_metadata jsonb[];
  c_result jsonb[];
  c_claimed boolean[];
  c_actor text[];
  c_key text[];
  c_command text[];
  c_hash text[];
  c_accepted boolean[] := array_fill(false, array[v_count]);
  ev_command integer[];
  ev_offset integer[];
  ev_type text[];
  ev_data jsonb[];
  ln_event integer[];
  ln_account text[];
  ln_amount bigint[];
  -- Each line's running balance and sequence, set as the rules accept it (funding lines: null).
  ln_seq bigint[];
  ln_balance bigint[];
  -- Wallet heads in memory, by id.
  v_ids text[];
  v_balances bigint[];
  v_seqs bigint[];
  v_start_seqs bigint[];
  v_funding text[];
  v_keys jsonb;
  v_versions jsonb;
  v_outcomes jsonb[] := array_fill(null::jsonb, array[v_count]);
  v_accepted integer := 0;
  v_event_positions bigint[];
  v_tx_id xid8;
  v_key text;
  v_current integer;
  v_account text;
  v_amount bigint;
  v_slot integer;
  v_failure jsonb;
  v_saved_balances bigint[];
  v_saved_seqs bigint[];
  v_result jsonb;
  v_command_positions jsonb;
  v_named text[];
  k_actor text[] := '{}';
  k_key text[] := '{}';
  k_command text[] := '{}';
  k_hash text[] := '{}';
  k_result jsonb[] := '{}';
begin
  with commands as (
    select c.o, c.x, jsonb_array_length(c.x->'events') as events,
           (select coalesce(sum(coalesce(jsonb_array_length(e->'postings'), 0)), 0)::integer
              from jsonb_array_elements(c.x->'events') e) as lines,
           case when jsonb_typeof(c.x->'idempotency') = 'object' then c.x->'idempotency' end as idempotency
      from jsonb_array_elements(p_appends) with ordinality as c(x, o)
  ),
  numbered as (
    select c.*,
           1 + coalesce(sum(c.events) over preceding, 0)::integer as first_event,
           1 + coalesce(sum(c.lines) over preceding, 0)::integer as first_line
      from commands c
    window preceding as (order by c.o rows between unbounded preceding and 1 preceding)
  )
  select array_agg(c.x->>'stream' order by c.o), array_agg((c.x->>'expected')::integer order by c.o),
         array_agg(c.events order by c.o), array_agg(c.first_event order by c.o),
         array_agg(c.lines order by c.o), array_agg(c.first_line order by c.o),
         array_agg(coalesce(c.x->'metadata', '{}'::jsonb) order by c.o), array_agg(coalesce(c.x->'result', '{}'::jsonb) order by c.o),
         array_agg(c.idempotency is not null order by c.o),
         array_agg(c.idempotency->>'actor' order by c.o), array_agg(c.idempotency->>'key' order by c.o),
         array_agg(c.idempotency->>'command' order by c.o), array_agg(c.idempotency->>'hash' order by c.o)
    into c_stream, c_expected, c_events, c_first_event, c_lines, c_first_line, c_metadata, c_result,
         c_claimed, c_actor, c_key, c_command, c_hash
    from numbered c;
  if array_position(c_events, null) is not null then
    raise exception 'ledger.append_batch: a command without an events array';
  end if;

  select coalesce(array_agg(c.o::integer order by c.o, e.k), '{}'), coalesce(array_agg(e.k::integer order by c.o, e.k), '{}'),
         coalesce(array_agg(e.ev->>'type' order by c.o, e.k), '{}'), coalesce(array_agg(e.ev->'data' order by c.o, e.k), '{}')
    into ev_command, ev_offset, ev_type, ev_data
    from jsonb_array_elements(p_appends) with ordinality as c(x, o),
         jsonb_array_elements(c.x->'events') with ordinality as e(ev, k);

  -- A line's event is its index in the ev_ arrays; an event's lines in account order (in the
  -- order they were given where an account repeats).
  select coalesce(array_agg(l.event order by l.event, l.account, l.n), '{}'),
         coalesce(array_agg(l.account order by l.event, l.account, l.n), '{}'),
         coalesce(array_agg(l.amount order by l.event, l.account, l.n), '{}')
    into ln_event, ln_account, ln_amount
    from (select (row_number() over (order by c.o, e.k))::integer as event, e.ev
            from jsonb_array_elements(p_appends) with ordinality as c(x, o),
                 jsonb_array_elements(c.x->'events') with ordinality as e(ev, k)) ev,
         lateral (select p->>'account' as account, (p->>'amount')::bigint as amount, n, ev.event
                    from jsonb_array_elements(coalesce(ev.ev->'postings', '[]'::jsonb)) with ordinality as q(p, n)) l;
  ln_seq := array_fill(null::bigint, array[cardinality(ln_event)]);
  ln_balance := array_fill(null::bigint, array[cardinality(ln_event)]);
  v_named := array(select distinct a from unnest(ln_account) as a);

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
    from (select distinct q.actor, q.key from unnest(c_claimed, c_actor, c_key) as q(claimed, actor, key) where q.claimed) q
    join ledger.idempotency_keys k
      on ledger.idempotency_digest(k.actor_id, k.key) = ledger.idempotency_digest(q.actor, q.key)
     and k.actor_id = q.actor and k.key = q.key;

  -- Each stream's current version: one backward step of the (stream_id, stream_version) index.
  -- The streams are named from the batch's jsonb, not from c_stream: with an array parameter
  -- the planner counts its elements in a custom plan and guesses 10 in the generic one, so for
  -- batches of fewer than ten commands it planned this statement on every call (~100 us, as
  -- much as running it); a set from jsonb is guessed alike in both, and the generic plan stays.
  select coalesce(jsonb_object_agg(n.stream_id, l.version), '{}') into v_versions
    from (select distinct x->>'stream' as stream_id from jsonb_array_elements(p_appends) x) n
    cross join lateral (select e.stream_version as version from ledger.events e where e.stream_id = n.stream_id
                         order by e.stream_version desc limit 1) l;

  for v_index in 1 .. v_count loop
    if c_claimed[v_index] then
      v_key := c_actor[v_index] || chr(10) || c_key[v_index];
      if v_keys ? v_key then
        if v_keys->v_key->>'hash' <> c_hash[v_index] then
          v_outcomes[v_index] := jsonb_build_object('ok', false, 'code', 'WL004', 'message', format('idempotency key %s was used for another request', c_key[v_index]));
        elsif v_keys->v_key ? 'twinOf' then
          v_outcomes[v_index] := jsonb_build_object('ok', true, 'twinOf', v_keys->v_key->'twinOf');
        elsif jsonb_typeof(v_keys->v_key->'result') = 'object' then
          v_outcomes[v_index] := jsonb_build_object('ok', true, 'result', (v_keys->v_key->'result') || jsonb_build_object('replayed', true));
        else
          v_outcomes[v_index] := jsonb_build_object('ok', false, 'code', 'WL004', 'message', format('idempotency key %s was used for another request', c_key[v_index]));
        end if;
        continue;
      end if;
    end if;

    v_current := coalesce((v_versions->>c_stream[v_index])::integer, -1);
    if v_current <> c_expected[v_index] then
      v_outcomes[v_index] := jsonb_build_object('ok', false, 'code', 'WL003', 'message', format('stream %s is not at version %s', c_stream[v_index], c_expected[v_index]));
      continue;
    end if;

    -- Apply the command's postings to the heads in memory, event by event and each event's in
    -- account order; undo them if any line is refused.
    v_saved_balances := v_balances;
    v_saved_seqs := v_seqs;
    v_failure := null;
    for v_line in c_first_line[v_index] .. c_first_line[v_index] + c_lines[v_index] - 1 loop
      v_account := ln_account[v_line];
      v_amount := ln_amount[v_line];
      v_slot := array_position(v_ids, v_account);
      if v_slot is null then
        if not (v_account = any(v_funding)) then
          v_failure := jsonb_build_object('ok', false, 'code', 'WL002', 'message', format('unknown account %s', v_account));
          exit;
        end if;
      else
        if v_balances[v_slot] + v_amount < 0 then
          v_failure := jsonb_build_object('ok', false, 'code', 'WL001', 'message', format('insufficient funds in %s', v_account));
          exit;
        end if;
        v_balances[v_slot] := v_balances[v_slot] + v_amount;
        v_seqs[v_slot] := v_seqs[v_slot] + 1;
        ln_seq[v_line] := v_seqs[v_slot];
        ln_balance[v_line] := v_balances[v_slot];
      end if;
    end loop;
    if v_failure is not null then
      v_balances := v_saved_balances;
      v_seqs := v_saved_seqs;
      v_outcomes[v_index] := v_failure;
      continue;
    end if;

    v_versions := v_versions || jsonb_build_object(c_stream[v_index], v_current + c_events[v_index]);
    if c_claimed[v_index] then
      v_keys := v_keys || jsonb_build_object(v_key, jsonb_build_object('hash', c_hash[v_index], 'twinOf', v_index));
    end if;
    c_accepted[v_index] := true;
    v_accepted := v_accepted + 1;
  end loop;

  if v_accepted > 0 then
    -- The accepted commands' events in batch order (positions come from the identity
    -- sequence), read back by their stream and version: v_event_positions holds each event's
    -- position at its index in the ev_ arrays (null for a refused command's).
    with inserted as (
      insert into ledger.events (stream_id, stream_version, type, data, metadata)
      select c_stream[e.command], c_expected[e.command] + e.step, e.type, e.data, c_metadata[e.command]
        from unnest(ev_command, ev_offset, ev_type, ev_data) with ordinality as e(command, step, type, data, ord)
       where c_accepted[e.command]
       order by e.ord
      returning position, tx_id, stream_id, stream_version
    )
    select array_agg(i.position order by e.ord), max(i.tx_id)
      into v_event_positions, v_tx_id
      from (select c_stream[u.command] as stream_id, c_expected[u.command] + u.step as stream_version, u.ord
              from unnest(ev_command, ev_offset) with ordinality as u(command, step, ord)) e
      left join inserted i using (stream_id, stream_version);

    insert into ledger.postings (position, account_id, amount, account_seq, balance_after)
    select v_event_positions[p.event], p.account, p.amount, p.seq, p.balance
      from unnest(ln_event, ln_account, ln_amount, ln_seq, ln_balance) as p(event, account, amount, seq, balance)
     where c_accepted[ev_command[p.event]];

    for v_index in 1 .. v_count loop
      continue when not c_accepted[v_index];
      v_command_positions := to_jsonb(v_event_positions[c_first_event[v_index] : c_first_event[v_index] + c_events[v_index] - 1]);
      v_result := c_result[v_index] || jsonb_build_object(
        'streamId', c_stream[v_index],
        'streamVersion', c_expected[v_index] + c_events[v_index],
        'positions', v_command_positions,
        'checkpoint', v_tx_id::text || '.' || (v_command_positions->>-1),
        'replayed', false);
      v_outcomes[v_index] := jsonb_build_object('ok', true, 'result', v_result);
      if c_claimed[v_index] then
        k_actor := k_actor || c_actor[v_index];
        k_key := k_key || c_key[v_index];
        k_command := k_command || c_command[v_index];
        k_hash := k_hash || c_hash[v_index];
        -- What the events do not say (ledger.recorded_result rebuilds the rest from them).
        k_result := k_result || case when c_events[v_index] > 0
          then c_result[v_index] || jsonb_build_object('positions', v_command_positions)
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
  for v_index in 1 .. v_count loop
    if v_outcomes[v_index] ? 'twinOf' then
      v_outcomes[v_index] := jsonb_build_object('ok', true, 'result',
        (v_outcomes[(v_outcomes[v_index]->>'twinOf')::integer]->'result') || jsonb_build_object('replayed', true));
    end if;
  end loop;
  return to_jsonb(v_outcomes);
end
$fn$;
revoke execute on function ledger.append_batch(jsonb) from public;
