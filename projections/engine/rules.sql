-- What every projection's rules share (schema projector), and how a rule becomes functions.
--
-- Each projection's rules are set-based SQL in its own folder (projections/<name>/rules.sql):
-- `projector.apply_<name>(schema, from, to)` applies every committed event in the read-order
-- range (from, to] - a (tx_id, position) pair each, chosen by the caller behind the xmin gate
-- (projections/engine/event-range.ts) - to that projection's tables in `schema`: `read` for the
-- live projector, `read_rebuild_<name>` for a replay. A batch of N events costs a few
-- INSERT ... SELECT / UPDATE ... FROM statements over the range, not N decodes in Node; the
-- live projector and replay run the same rules. The functions run as their caller (SECURITY
-- INVOKER): the runtime role, which may read the ledger and write the read tables and a
-- replay's rebuild tables, and nothing else.
--
-- A rule is written once, with `{schema}` where its tables' schema goes, and instantiated
-- (pg_temp.define_rule below) as two static PL/pgSQL functions, whose plans Postgres caches per
-- session instead of planning dynamic SQL on every batch:
-- - `apply_<name>__live` writes `read`, and plans with sequential scans priced out
--   (enable_seqscan = off). A plan is kept until an ANALYZE of one of its tables invalidates
--   it, and one made while ledger.postings was a page or two (a new deployment, the first
--   batches) would read a posting by a sequential scan and keep doing so, per event, as the
--   table grows, for as long as nothing re-analyzes it. A live batch is a small range looked
--   up by keys, never a scan (a table with no usable index still gets one).
-- - `apply_<name>__rebuild` writes `read_rebuild_<name>`; replay reads large chunks and keeps
--   the planner's choice.
-- `apply_<name>(p_schema, ...)` checks the target and dispatches to one of them.

-- The three funding accounts' display names (a wallet's is in its WalletOpened event).
create or replace function projector.funding_name(p_account_id text) returns text
language sql immutable parallel safe as $fn$
  select case p_account_id
    when 'funding:bank_transfer' then 'Bank transfer'
    when 'funding:upi' then 'UPI'
    when 'funding:card' then 'Card'
  end
$fn$;

-- The id users see for a money movement: the transfer, deposit or request id. An event type
-- without one yields null, which the read tables' NOT NULL refuses: a new event type must be
-- taught to the projections before it can be projected.
create or replace function projector.transaction_id(p_type text, p_data jsonb) returns text
language sql immutable parallel safe as $fn$
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
$fn$;

-- The committed events of a read-order range (from, to], read through the (tx_id, position)
-- index and nothing else. A function and not a predicate in each statement: a fence the
-- statements' type filters cannot reach through, so the planner never ANDs the range with an
-- index on type (every DepositSettled of the whole log scanned for a small batch, growing with
-- the log). Its row estimate is a replay chunk's size (ROWS 20000): with a live batch's the
-- planner joined a replay chunk's rows to its deposit answers by nested loop, many times
-- slower; a live batch's small joins cost the same either way. Static SQL, so a cached generic
-- plan costs what a custom one does (the estimate is the declared constant either way).
-- Its own statement keeps one generic plan (plan_cache_mode), through the index only
-- (enable_seqscan off). Left to choose, the planner found a custom plan for the given range
-- cheaper than the generic one every time and planned the statement on every call (~300 us of
-- planning against ~90 us of reading in a scratch; no gain showed in B1's live run:
-- bench/RESULTS.md, "2026-12-01 10:55"). Without sequential scans, no generic estimate of a
-- range on a large log can turn it into a read of the whole log.
create or replace function projector.events_in_range(
  p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint
) returns setof ledger.events language plpgsql stable rows 20000
  set plan_cache_mode = force_generic_plan set enable_seqscan = off as $fn$
begin
  return query
    select * from ledger.events e
     where e.tx_id between p_from_tx and p_to_tx
       and (e.tx_id, e.position) > (p_from_tx, p_from_position)
       and (e.tx_id, e.position) <= (p_to_tx, p_to_position)
     order by e.tx_id, e.position;
end
$fn$;

-- The event types of a read-order range (from, to]: a rule skips the statements whose types the
-- range lacks (a statement with nothing to apply still cost ~40 us - its range read, its
-- executor's start, the locks on its table and indexes - and payments' rounds hold only
-- TransferCompleted: bench/RESULTS.md, "2026-11-30 16:35", the round profile). A round has them
-- from projector.next_range; this is for the dispatching apply_<name> (replay's chunks, tests).
create or replace function projector.range_types(
  p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint
) returns text[] language sql stable as $fn$
  select array(select distinct e.type
                 from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e)
$fn$;

-- A projection writes its own tables, live or in its own rebuild schema, and no others.
create or replace function projector.assert_target(p_schema text, p_projection text) returns void
language plpgsql immutable as $fn$
begin
  if p_schema is distinct from 'read' and p_schema is distinct from 'read_rebuild_' || p_projection then
    raise exception 'projection % may not write schema %', p_projection, p_schema;
  end if;
end
$fn$;

-- Instantiates one projection's rule (its statements, `{schema}` for their tables' schema, and
-- `p_types`, the range's event types, to skip what the range lacks) as apply_<name>__live,
-- apply_<name>__rebuild and the dispatching apply_<name>, which reads the types itself. A
-- temporary function of the migrating session: it is not part of the schema, and the runtime
-- role never sees it.
create or replace function pg_temp.define_rule(p_projection text, p_rule text) returns void
language plpgsql as $fn$
declare
  v_range constant text := 'p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint';
  v_arguments constant text := v_range || ', p_types text[]';
begin
  execute format(
    'create or replace function projector.%I(%s) returns void language plpgsql set enable_seqscan = off as %L',
    'apply_' || p_projection || '__live', v_arguments,
    E'\nbegin\n' || replace(p_rule, '{schema}', 'read') || E'end\n');
  execute format(
    'create or replace function projector.%I(%s) returns void language plpgsql as %L',
    'apply_' || p_projection || '__rebuild', v_arguments,
    E'\nbegin\n' || replace(p_rule, '{schema}', quote_ident('read_rebuild_' || p_projection)) || E'end\n');
  execute format(
    'create or replace function projector.%I(p_schema text, %s) returns void language plpgsql as %L',
    'apply_' || p_projection, v_range,
    format(concat_ws(E'\n', '',
      'declare',
      '  v_types text[];',
      'begin',
      '  perform projector.assert_target(p_schema, %1$L);',
      '  v_types := projector.range_types(p_from_tx, p_from_position, p_to_tx, p_to_position);',
      '  if p_schema = ''read'' then',
      '    perform projector.%2$I(p_from_tx, p_from_position, p_to_tx, p_to_position, v_types);',
      '  else',
      '    perform projector.%3$I(p_from_tx, p_from_position, p_to_tx, p_to_position, v_types);',
      '  end if;',
      'end', ''),
      p_projection, 'apply_' || p_projection || '__live', 'apply_' || p_projection || '__rebuild'));
end
$fn$;
