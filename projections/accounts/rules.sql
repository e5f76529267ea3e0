-- Projection "accounts" (projections/accounts/projection.ts): the directory of display names,
-- every account's balance (funding accounts' balances exist only here) and per-account
-- statement lines (read.statement_lines) with a running balance. A wallet posting's running
-- balance and sequence are the ledger's own (taken under the wallet's row lock); a funding
-- posting's are counted here in read order, which is the same for the live projector and a
-- replay. Balances are sums of amounts, never a last balance_after: read order is (tx_id,
-- position), not the order of the row locks. A balance row's last position is its account's
-- greatest posting position and its time that event's (the opening's before any posting): a
-- figure that does not depend on the order events are applied in, so the balances alone rebuild
-- from the postings without looking up each one's transaction (bulk_replay_balances below).
-- A wallet's name is in its WalletOpened event, the first of its stream (version 0): looked up
-- per name by the full unique key (stream_id, stream_version), in a LATERAL ... OFFSET 0 the
-- planner cannot turn into a join. As a join, with the log's statistics stale (a new ledger, a
-- promoted standby), it read every WalletOpened event through the index on type - for a batch of
-- 20 events on 10,000 wallets, 40% of the accounts and history rules' time. Postings are joined
-- per event, and a funding posting's balance row looked up per line, the same way (LATERAL ...
-- OFFSET 0, which the planner may not flatten): a range's row estimate from a (tx_id, position)
-- comparison can be off by orders of magnitude, and a hash join on that estimate reads every
-- posting of the ledger, or every balance row, for a batch of a few.
-- The rule is instantiated by pg_temp.define_rule (projections/engine/rules.sql): `{schema}` is
-- `read` or `read_rebuild_accounts`.
select pg_temp.define_rule('accounts', $rule$
  -- Each directory statement runs only when the range holds its types (p_types:
  -- projector.range_types); a payment's round holds neither.
  if p_types && array['WalletOpened'] then
  insert into {schema}.directory (account_id, display_name, kind, opened_at)
  select e.data->>'accountId', e.data->>'displayName', 'wallet', e.recorded_at
    from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
     where e.type = 'WalletOpened';
  end if;

  -- A funding account appears in the directory with its first posting: only deposits' events
  -- (settled, reversed) post to one (ledger/accounts.ts).
  if p_types && array['DepositSettled', 'DepositReversed'] then
  insert into {schema}.directory (account_id, display_name, kind, opened_at)
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
        select b.balance_paise, b.postings_count from {schema}.balances b
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
    insert into {schema}.statement_lines (account_id, position, tx_id, sequence, event_type, stream_id, transaction_id,
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
  insert into {schema}.balances as b (account_id, balance_paise, postings_count, last_position, updated_at)
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
$rule$);

-- Replay's bulk load (projections/engine/replay.ts): the same rows the rule above gives when
-- applied chunk by chunk from the first event, made in one set-based pass over the log up to
-- (p_to_tx, p_to_position), a checkpoint behind the xmin gate. Not event by event: the
-- directory is two INSERT ... SELECTs and the statement lines one, over ledger.postings joined
-- to their events, with the running figures of funding postings as window functions over each
-- account's postings in read order (what the rule adds to the balance row as it was before
-- each chunk: the sum and count of the account's earlier postings); the balances are the
-- balances alone's (projector.bulk_replay_balances). The accounts are split into p_parts parts
-- by a hash of their id; a call loads part p_part, so the parts can be loaded at once on
-- several connections (no row of one part depends on another's: a counterparty's name comes
-- from the log, not the tables). Writes read_rebuild_accounts only; the runtime runs it as
-- itself (SECURITY INVOKER). Nested loops are priced out: the part filter makes the planner
-- expect a few hundred rows where a part is the whole log, and it then probed events by index
-- once per posting. Its hash joins are of every posting of the part: with the default 4 MB
-- they spill to disk from a few tens of thousands of events on.
create or replace function projector.account_part(p_account_id text, p_parts integer) returns integer
language sql immutable parallel safe as $fn$
  select (hashtext(p_account_id) & 2147483647) % p_parts
$fn$;

create or replace function projector.bulk_replay_accounts(
  p_to_tx xid8, p_to_position bigint, p_parts integer, p_part integer
) returns void language plpgsql set enable_nestloop = off set work_mem = '256MB' as $fn$
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
$fn$;

-- The balances alone, for an operator who needs them now (replayBalances,
-- projections/engine/replay.ts): the rows of part p_part of the accounts up to (p_to_tx,
-- p_to_position), the accounts projection's own checkpoint, which the caller holds locked
-- meanwhile. Work per account, not per event: a wallet's balance and posting count are the
-- ledger's own running figures on its newest posting (balance_after and account_seq, written
-- under the wallet's lock and checked against the sum of its postings by `ledger verify`), one
-- descent of one_posting_per_account_seq; the postings of events after the checkpoint (few:
-- the checkpoint is the newest the gate let through) are taken back out of both. Taking them
-- out, not stepping back to the newest posting before the checkpoint: read order is (tx_id,
-- position), not the order of the wallet's lock, so a posting inside the checkpoint can follow
-- one outside it in the wallet's sequence, and its balance_after would count that one. The
-- last position is the newest posting inside the checkpoint (positions follow the sequence:
-- both are taken under the lock) and the time its event's, or the opening's when it has none.
-- A funding account has no running figures on its postings: its postings are summed (a few
-- accounts, one index range each). The same rows as the rule and the full load give.
-- Writes read_rebuild_accounts.balances only.
-- Its lookups are per account by index: nested loops on, also when bulk_replay_accounts (which
-- prices them out for its own joins) calls it.
create or replace function projector.bulk_replay_balances(
  p_to_tx xid8, p_to_position bigint, p_parts integer, p_part integer
) returns void language plpgsql set enable_nestloop = on as $fn$
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
$fn$;
