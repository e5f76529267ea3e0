-- A live projector batch in one round trip (`projector.run_batch`, called by
-- projections/engine/projector.ts): lock the projection's checkpoint row with SKIP LOCKED (one
-- active projector per projection), find the range behind the xmin gate, apply the
-- projection's own rule (`apply_<name>__live`, projections/<name>/rules.sql), save the checkpoint
-- and NOTIFY, all in the one implicit transaction of the call; then say whether more is
-- waiting. Every command's reply waits for all the projections, so each statement a batch sent
-- from Node was paid per command. Each step is a function of its own, which replay's steps
-- from Node call too (projections/engine/event-range.ts, projector.ts), so the gate, the
-- checkpoint's update and its NOTIFY are written once.

-- The next range (after, to] of up to p_limit committed events behind the snapshot xmin, in
-- read order (projections/engine/event-range.ts says why the gate makes it final), and its event
-- types (a round hands them to its rules: projector.range_types says why); no row when there is
-- none. One generic plan, through the (tx_id, position) index (sequential scans priced out): as
-- events_in_range (rules.sql), it was planned on every call otherwise.
create or replace function projector.next_range(p_after_tx xid8, p_after_position bigint, p_limit integer)
returns table (tx_id xid8, "position" bigint, events integer, types text[])
language sql volatile set plan_cache_mode = force_generic_plan set enable_seqscan = off as $fn$
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
$fn$;

-- Committed events after a checkpoint, held back by the gate or not yet read: the first key
-- after the checkpoint, which only the (tx_id, position) index gives cheaply. As
-- `exists (... where (tx_id, position) > ($1, $2))` the generic plan expected a third of the
-- log to match and chose a sequential scan - but the rows after a checkpoint are the newest, at
-- the end of the heap, so every batch read the whole log to reach them. An ORDER BY ... LIMIT 1
-- inside EXISTS is stripped by the planner, hence the scalar subquery.
create or replace function projector.has_events_after(p_tx xid8, p_position bigint) returns boolean
language sql stable as $fn$
  select (select e.position from ledger.events e
           where (e.tx_id, e.position) > (p_tx, p_position)
           order by e.tx_id, e.position
           limit 1) is not null
$fn$;

-- Moves projections' checkpoints (adding to or setting their applied counts) and tells the
-- waiters, one NOTIFY a projection (the payload names one); the NOTIFYs are delivered at
-- commit, and only if it commits. Several at once: a round's projections reach the same
-- checkpoint, and a call a projection was ~80 us of a round's fixed cost.
create or replace function projector.save_checkpoint(
  p_projections text[], p_tx xid8, p_position bigint, p_applied bigint, p_add boolean
) returns void language plpgsql as $fn$
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
$fn$;

-- One live round of several projections (`projector.run_round`, called by the projection
-- workers, projections/engine/worker-loop.ts): the batches of the header above, over one range,
-- in one transaction (run_batch below is a round of one). A batch's fixed cost - the round
-- trip, the checkpoint row's lock, the range lookup, the transaction and its commit - was paid
-- once per projection and per batch, and under payments (batches of a few events each) it was
-- most of the read side's CPU: 4 projections a batch apart cost 1.3-1.6x the CPU of one round
-- of the four (bench/RESULTS.md, issue 40).
-- Locks the checkpoint rows it can (SKIP LOCKED: a row another worker or a replay holds is left
-- to it); the projections among them at the earliest checkpoint apply the next range after it,
-- and those already past it wait for a later round (they reach the same checkpoints in a round
-- or two: a replay's swap leaves its projection ahead or behind the others). Each projection
-- moved saves its checkpoint and NOTIFYs (one statement for all). The range's event types are
-- read with the range and handed to every rule (projector.range_types says why). One row per
-- projection locked: what it applied and where it is; `more` (the same in every row) says
-- whether committed events wait after the earliest of them. No row: every named projection was
-- held elsewhere.
-- Never JIT-compiled: the rules' statements are planned for a replay chunk's size
-- (events_in_range's ROWS), so on a server with JIT on (PostgreSQL's default where it is built
-- with LLVM: Debian's, most managed ones) their estimated cost passed the JIT thresholds, and
-- every execution in every new session - every session of a promoted standby - compiled them
-- again: 0.15-1.2 s per statement, and payments waited out the read-after-reply bound
-- (bench/RESULTS.md, B7 after a switchover).
create or replace function projector.run_round(p_projections text[], p_limit integer)
returns table (projection text, applied integer, tx_id xid8, "position" bigint, more boolean)
language plpgsql set jit = off as $fn$
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
$fn$;

-- One live batch of a projection (the steps in the header above): a round of that projection
-- alone, so the steps are written once. No row from the round means another projector holds
-- the checkpoint row (or no such projection: the caller names only known ones): busy.
create or replace function projector.run_batch(p_projection text, p_limit integer)
returns table (busy boolean, applied integer, tx_id xid8, "position" bigint, more boolean)
language sql set jit = off as $fn$
  select r.projection is null, coalesce(r.applied, 0), r.tx_id, r.position, coalesce(r.more, false)
    from (select) as one
    left join projector.run_round(array[p_projection], p_limit) r on true
$fn$;
