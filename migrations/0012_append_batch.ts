/**
 * Group commit: `ledger.append_batch` appends the commands of many concurrent callers in one
 * transaction, one statement, each command with its own outcome (ledger/event-store/batch.ts
 * gathers them). The rules are `ledger.append`'s, applied command by command in the batch's
 * order against the wallet heads held in memory:
 * - every wallet the batch touches is locked first, in id order (concurrent batches queue,
 *   never deadlock), and read once;
 * - a command whose idempotency key was used answers its first result (or is refused when
 *   the request differs); a twin inside the batch answers the first one's result;
 * - a command whose stream is not at its expected version is refused (stream conflict);
 * - a posting to an unknown account, or one that would take a wallet below zero, refuses
 *   that command only: its tentative head changes are undone and the next command sees the
 *   heads as they were;
 * - accepted commands' events, postings (with each wallet's running balance and sequence)
 *   and idempotency records are then inserted by one statement each, and each touched wallet
 *   head is updated once, however many commands moved it.
 * The database keeps guarding what it guarded: the zero-sum statement trigger over the
 * postings insert, `wallet_never_negative`, the append-only triggers, the unique stream
 * version and the idempotency primary key. A unique violation against a concurrent batch
 * fails this batch whole (nothing of it commits); the caller then appends its commands one
 * by one with `ledger.append`.
 * The output is an array in input order: `{ok: true, result}` or `{ok: false, code, message}`
 * with the ledger's SQLSTATE-like codes (WL001 funds, WL002 unknown account, WL003 stream
 * conflict, WL004 idempotency key reused).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
create function ledger.append_batch(p_appends jsonb) returns jsonb
language plpgsql security definer set search_path = pg_catalog, pg_temp as $fn$
declare
  v_count integer := jsonb_array_length(p_appends);
  v_ids text[];
  v_balances bigint[];
  v_seqs bigint[];
  v_start_seqs bigint[];
  v_funding text[];
  v_keys jsonb;
  v_versions jsonb;
  v_outcomes jsonb[] := array_fill(null::jsonb, array[v_count]);
  v_events jsonb := '[]';
  v_postings jsonb := '[]';
  v_accepted integer[] := '{}';
  v_append jsonb;
  v_idempotency jsonb;
  v_key text;
  v_current integer;
  v_saved_balances bigint[];
  v_saved_seqs bigint[];
  v_command_events jsonb;
  v_command_postings jsonb;
  v_event jsonb;
  v_posting jsonb;
  v_account text;
  v_amount bigint;
  v_slot integer;
  v_failure jsonb;
  v_tx_id xid8;
  v_event_positions jsonb;
  v_positions jsonb;
  v_result jsonb;
  v_key_rows jsonb := '[]';
  v_index integer;
begin
  -- The wallets of every posting, locked in id order and read once; funding accounts have no head.
  select coalesce(array_agg(w.id order by w.id), '{}'), coalesce(array_agg(w.balance order by w.id), '{}'), coalesce(array_agg(w.seq order by w.id), '{}')
    into v_ids, v_balances, v_seqs
    from (select a.id, a.balance, a.seq
            from ledger.accounts a
           where a.kind = 'wallet'
             and a.id in (select distinct p->>'account'
                            from jsonb_array_elements(p_appends) x,
                                 jsonb_array_elements(x->'events') e,
                                 jsonb_array_elements(coalesce(e->'postings', '[]'::jsonb)) p)
           order by a.id
             for update) w;
  v_start_seqs := v_seqs;
  select coalesce(array_agg(a.id), '{}') into v_funding
    from ledger.accounts a
   where a.kind <> 'wallet'
     and a.id in (select distinct p->>'account'
                    from jsonb_array_elements(p_appends) x,
                         jsonb_array_elements(x->'events') e,
                         jsonb_array_elements(coalesce(e->'postings', '[]'::jsonb)) p);

  select coalesce(jsonb_object_agg(k.actor_id || chr(10) || k.key, jsonb_build_object('hash', k.request_hash, 'result', k.result)), '{}')
    into v_keys
    from ledger.idempotency_keys k
    join (select distinct x->'idempotency'->>'actor' as actor, x->'idempotency'->>'key' as key
            from jsonb_array_elements(p_appends) x
           where jsonb_typeof(x->'idempotency') = 'object') q
      on k.actor_id = q.actor and k.key = q.key;

  select coalesce(jsonb_object_agg(s.stream_id, s.version), '{}') into v_versions
    from (select e.stream_id, max(e.stream_version) as version
            from ledger.events e
           where e.stream_id in (select distinct x->>'stream' from jsonb_array_elements(p_appends) x)
           group by e.stream_id) s;

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
    v_failure := null;
    v_command_events := '[]';
    v_command_postings := '[]';
    for v_event_index in 0 .. jsonb_array_length(v_append->'events') - 1 loop
      v_event := v_append->'events'->v_event_index;
      v_command_events := v_command_events || jsonb_build_object(
        'i', v_index, 'j', v_event_index, 'stream', v_append->>'stream', 'version', v_current + 1 + v_event_index,
        'type', v_event->>'type', 'data', v_event->'data', 'metadata', coalesce(v_append->'metadata', '{}'::jsonb));
      for v_posting in select value from jsonb_array_elements(coalesce(v_event->'postings', '[]'::jsonb)) order by value->>'account' loop
        v_account := v_posting->>'account';
        v_amount := (v_posting->>'amount')::bigint;
        v_slot := array_position(v_ids, v_account);
        if v_slot is null then
          if not (v_account = any(v_funding)) then
            v_failure := jsonb_build_object('ok', false, 'code', 'WL002', 'message', format('unknown account %s', v_account));
            exit;
          end if;
          v_command_postings := v_command_postings || jsonb_build_object('i', v_index, 'j', v_event_index, 'account', v_account, 'amount', v_amount);
        else
          if v_balances[v_slot] + v_amount < 0 then
            v_failure := jsonb_build_object('ok', false, 'code', 'WL001', 'message', format('insufficient funds in %s', v_account));
            exit;
          end if;
          v_balances[v_slot] := v_balances[v_slot] + v_amount;
          v_seqs[v_slot] := v_seqs[v_slot] + 1;
          v_command_postings := v_command_postings || jsonb_build_object('i', v_index, 'j', v_event_index, 'account', v_account, 'amount', v_amount, 'seq', v_seqs[v_slot], 'balance', v_balances[v_slot]);
        end if;
      end loop;
      exit when v_failure is not null;
    end loop;
    if v_failure is not null then
      v_balances := v_saved_balances;
      v_seqs := v_saved_seqs;
      v_outcomes[v_index + 1] := v_failure;
      continue;
    end if;

    v_versions := v_versions || jsonb_build_object(v_append->>'stream', v_current + jsonb_array_length(v_append->'events'));
    if v_idempotency is not null then
      v_keys := v_keys || jsonb_build_object(v_key, jsonb_build_object('hash', v_idempotency->>'hash', 'twinOf', v_index));
    end if;
    v_events := v_events || v_command_events;
    v_postings := v_postings || v_command_postings;
    v_accepted := v_accepted || v_index;
  end loop;

  if cardinality(v_accepted) > 0 then
    -- Events in batch order; positions come from the identity sequence.
    with rows as (
      select (r->>'i')::integer as i, (r->>'j')::integer as j, r->>'stream' as stream_id, (r->>'version')::integer as stream_version,
             r->>'type' as type, r->'data' as data, r->'metadata' as metadata, ord
        from jsonb_array_elements(v_events) with ordinality as t(r, ord)
    ), inserted as (
      insert into ledger.events (stream_id, stream_version, type, data, metadata)
      select stream_id, stream_version, type, data, metadata from rows order by ord
      returning position, tx_id, stream_id, stream_version
    )
    select jsonb_object_agg(rows.i || ':' || rows.j, inserted.position), max(inserted.tx_id)
      into v_event_positions, v_tx_id
      from inserted join rows using (stream_id, stream_version);

    insert into ledger.postings (position, account_id, amount, account_seq, balance_after)
    select (v_event_positions->>((p->>'i') || ':' || (p->>'j')))::bigint, p->>'account', (p->>'amount')::bigint, (p->>'seq')::bigint, (p->>'balance')::bigint
      from jsonb_array_elements(v_postings) p;

    foreach v_index in array v_accepted loop
      v_append := p_appends->v_index;
      select jsonb_agg((v_event_positions->>(v_index || ':' || j))::bigint order by j) into v_positions
        from generate_series(0, jsonb_array_length(v_append->'events') - 1) j;
      v_result := coalesce(v_append->'result', '{}'::jsonb) || jsonb_build_object(
        'streamId', v_append->>'stream',
        'streamVersion', (v_append->>'expected')::integer + jsonb_array_length(v_append->'events'),
        'positions', v_positions,
        'checkpoint', v_tx_id::text || '.' || (v_positions->>-1),
        'replayed', false);
      v_outcomes[v_index + 1] := jsonb_build_object('ok', true, 'result', v_result);
      if jsonb_typeof(v_append->'idempotency') = 'object' then
        v_key_rows := v_key_rows || jsonb_build_object('actor', v_append->'idempotency'->>'actor', 'key', v_append->'idempotency'->>'key',
          'command', v_append->'idempotency'->>'command', 'hash', v_append->'idempotency'->>'hash', 'result', v_result);
      end if;
    end loop;

    insert into ledger.idempotency_keys (actor_id, key, command, request_hash, result)
    select r->>'actor', r->>'key', r->>'command', r->>'hash', r->'result' from jsonb_array_elements(v_key_rows) r;

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
`.execute(db);
}
