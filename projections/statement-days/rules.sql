-- Projection "statement_days" (projections/statement-days/projection.ts): per wallet and per
-- calendar day, money in, money out (paise), the closing balance and the number of postings. The day is
-- the Asia/Kolkata calendar day (UTC+05:30, no daylight saving): the product is for Indian
-- consumers, and a statement "for 1 March" must mean their 1 March, whatever the server's time
-- zone.
--
-- Rows are derived from postings, not from event types: every event that moves a wallet
-- (deposits settled, transfers, accepted requests, every reversal) has a wallet posting, and a
-- new event type that moves money is counted without teaching it anything. Funding accounts
-- (postings without account_seq) have no statement.
--
-- A closing balance is the sum of the wallet's amounts of every day up to and including that
-- one, never a balance_after: read order is (tx_id, position), and a transaction that began
-- before midnight can take the wallet's lock after one that began after it, so "the last
-- balance_after of the day" would count a posting of the next day. Summing per day makes
-- closing(D) = closing(D - 1) + in(D) - out(D) hold always, in whatever order the events are
-- read; a range that brings a posting for a day before days already projected (such a
-- transaction committing late) moves those later days' closing balances too.

-- A range's wallet postings summed per wallet and day. A function so the two statements of
-- apply_statement_days read the range the same way (through events_in_range: the (tx_id,
-- position) index and nothing else; postings joined per event, see projections/accounts/rules.sql).
create or replace function projector.statement_deltas(
  p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint
) returns table (account_id text, day date, money_in bigint, money_out bigint, net bigint, postings bigint)
language sql stable rows 2000 as $fn$
  select p.account_id, (e.recorded_at at time zone 'Asia/Kolkata')::date,
         coalesce(sum(p.amount) filter (where p.amount > 0), 0)::bigint,
         coalesce(-sum(p.amount) filter (where p.amount < 0), 0)::bigint,
         sum(p.amount)::bigint, count(*)::bigint
    from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
    cross join lateral (select * from ledger.postings p where p.position = e.position offset 0) p
   where p.account_seq is not null
   group by 1, 2
$fn$;

-- The rule, in one statement: the update of the days already projected runs as a
-- data-modifying CTE of the insert of the new days, over one materialized set of sums (one range
-- scan, one postings join, one aggregation per batch). Both parts read the same snapshot, so the
-- insert does not see the update's new closing balances; it does not need to: a new day's closing
-- balance is the latest earlier day's closing balance before this range, plus the range's net
-- amounts of every day up to the new one - those before or on the earlier day are exactly what
-- the update adds to it, those after it are the new days' own. So closing(new day) =
-- closing_before(prior day) + the range's net up to the new day, with 0 for a wallet with no
-- earlier day. The update and the insert touch disjoint rows (existing days, new days).
-- Every row is found through the primary key - the days from a range's first day of each wallet
-- on, looked up once and updated by their row id (a day not among them is new) - never by a join
-- the planner may turn into a scan of every wallet's days: the range's row estimate from the
-- (tx_id, position) comparison is off by orders of magnitude, and without fresh statistics (a new
-- ledger, a promoted standby) such joins read all of statement_days for a batch of a few events
-- (on 10,000 wallets, 4 ms of a 5.5 ms batch). Instantiated by pg_temp.define_rule
-- (projections/engine/rules.sql): `{schema}` is `read` or `read_rebuild_statement_days`.
select pg_temp.define_rule('statement_days', $rule$
  with deltas as materialized (select * from projector.statement_deltas(p_from_tx, p_from_position, p_to_tx, p_to_position)),
  -- Days already projected from each wallet's first day in this range on (usually only today's
  -- row of each wallet; a late commit across midnight finds the later days too), looked up
  -- once: what the update moves, and what tells a new day from an old one.
  existing as materialized (
    select a.account_id, k.row_id, k.day
      from (select account_id, min(day) as first_day from deltas group by account_id) a
      cross join lateral (
        select t.ctid as row_id, t.day from {schema}.statement_days t
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
    update {schema}.statement_days t
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
  insert into {schema}.statement_days (account_id, day, money_in_paise, money_out_paise, closing_balance_paise, postings_count)
  select f.account_id, f.day, f.money_in, f.money_out,
         coalesce(prior.closing_balance_paise, 0)
           + (select sum(d.net) from deltas d where d.account_id = f.account_id and d.day <= f.day),
         f.postings
    from fresh f
    left join lateral (
      select t.closing_balance_paise from {schema}.statement_days t
       where t.account_id = f.account_id and t.day < f.day
       order by t.day desc limit 1
    ) prior on true;
$rule$);

-- Replay's bulk load (projections/engine/replay.ts): the rows the rule above gives when applied
-- chunk by chunk from the first event, in one set-based pass over the postings up to
-- (p_to_tx, p_to_position), a checkpoint behind the xmin gate: each wallet's postings summed per
-- Asia/Kolkata day, and each day's closing balance the running sum of its wallet's days in day
-- order (the rule's closing(D) = closing(D - 1) + in(D) - out(D), in whatever order the events
-- were read). The wallets are split into p_parts parts by a hash of their id
-- (projector.account_part, as accounts' load); a call loads part p_part, so the parts load at
-- once on several connections. Writes read_rebuild_statement_days only, as the runtime role
-- (SECURITY INVOKER). Nested loops priced out and a large work_mem for the same reasons as
-- accounts' load (projections/accounts/rules.sql).
create or replace function projector.bulk_replay_statement_days(
  p_to_tx xid8, p_to_position bigint, p_parts integer, p_part integer
) returns void language plpgsql set enable_nestloop = off set work_mem = '256MB' as $fn$
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
$fn$;
