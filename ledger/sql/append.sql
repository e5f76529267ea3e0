-- ledger.append: one command's append (ledger/event-store/append.ts), for appends inside a
-- caller's transaction and for a batch retried command by command. It is a batch of one
-- through ledger.append_batch (append-batch.sql), so the money rules - idempotency reuse,
-- the stream version, unknown accounts, funds - are written once, there. What differs is only
-- how a refusal comes back: raised, with the outcome's SQLSTATE and message (WL001 insufficient
-- funds, WL002 unknown account, WL003 stream version conflict, WL004 idempotency key reused for
-- a different request), instead of returned. A unique violation against a concurrent append
-- (the stream version, or the same idempotency key committed meanwhile) fails the call with
-- 23505, which the ledger maps to stream_conflict and retries.
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
$fn$;
revoke execute on function ledger.append(text, integer, jsonb, jsonb, jsonb, jsonb) from public;
