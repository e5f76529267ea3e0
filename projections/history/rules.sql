-- Projection "history" (projections/history/projection.ts): each user's transaction list, one
-- row per participant of each money movement, typed as that participant sees it: 'deposit'
-- (sender = receiver = the wallet; the counterparty is the funding account), 'debit' for the
-- sender, 'credit' for the receiver. A deposit request is a pending row that its settlement or
-- failure later updates in place. A reversal adds new rows - 'debit' for whoever gives the
-- money back, 'credit' for whoever gets it - referenced "Reversal: <reason>"; the original rows
-- stay as they were. It also keeps each user's number of rows per type (history_counts), so a
-- page's total is a key lookup instead of a count of the user's rows. A row is `keyed` (in the
-- search index) once its account has more than read.history_keys_after_rows() rows, and from
-- then on all of the account's rows are - its earlier ones right after the round that passed
-- the bound (history_keying lists the accounts waiting for that). And who made each event
-- (event_actors), for the admin explorer.
-- Names and postings are looked up as in the accounts rule (projections/accounts/rules.sql).
-- The rule is instantiated by pg_temp.define_rule (projections/engine/rules.sql): `{schema}` is
-- `read` or `read_rebuild_history`.
-- How a money movement reads in history, one event at a time: written once for the rule below
-- and replay's bulk load (projector.bulk_replay_history). Plain SQL expressions, immutable, so
-- the planner inlines them where they are called (as projector.transaction_id).
-- Who gives the money (in a reversal, whoever received the original).
create or replace function projector.history_sender(p_type text, p_data jsonb) returns text
language sql immutable parallel safe
return case p_type
         when 'TransferCompleted' then p_data->>'fromAccountId'
         when 'MoneyRequestAccepted' then p_data->>'payerId'
         when 'TransferReversed' then p_data->>'toAccountId'          -- the receiver gives it back
         when 'MoneyRequestPaymentReversed' then p_data->>'requesterId'
         else p_data->>'walletId'                                     -- deposits and their reversals
       end;

create or replace function projector.history_receiver(p_type text, p_data jsonb) returns text
language sql immutable parallel safe
return case p_type
         when 'TransferCompleted' then p_data->>'toAccountId'
         when 'MoneyRequestAccepted' then p_data->>'requesterId'
         when 'TransferReversed' then p_data->>'fromAccountId'
         when 'MoneyRequestPaymentReversed' then p_data->>'payerId'
         when 'DepositRequested' then p_data->>'walletId'
         when 'DepositReversed' then 'funding:' || (p_data->>'method')
       end;

-- The funding account of a deposit or its reversal; null for money between wallets.
create or replace function projector.history_funding(p_type text, p_data jsonb) returns text
language sql immutable parallel safe
return case when p_type in ('DepositRequested', 'DepositReversed') then 'funding:' || (p_data->>'method') end;

create or replace function projector.history_reference(p_type text, p_data jsonb) returns text
language sql immutable parallel safe
return case when p_type in ('TransferReversed', 'DepositReversed', 'MoneyRequestPaymentReversed')
            then 'Reversal: ' || (p_data->>'reason') else p_data->>'reference' end;

create or replace function projector.history_method(p_type text, p_data jsonb) returns text
language sql immutable parallel safe
return case p_type
         when 'TransferCompleted' then 'transfer'
         when 'MoneyRequestAccepted' then 'request'
         when 'DepositRequested' then p_data->>'method'
         else 'reversal'
       end;

select pg_temp.define_rule('history', $rule$
  -- Settlements and failures of deposits requested before this range. First, so that a
  -- reversal row this range adds on the same stream keeps its own status and time. Each
  -- statement runs only when the range holds its types (p_types: projector.range_types).
  if p_types && array['DepositSettled', 'DepositFailed'] then
  update {schema}.history h
     set status = c.status, updated_at = c.recorded_at, failure_reason = c.failure_reason
    from (select distinct on (e.data->>'walletId', e.stream_id)
                 e.data->>'walletId' as account_id, e.stream_id,
                 case e.type when 'DepositSettled' then 'success' else 'failed' end as status, e.recorded_at,
                 case when e.type = 'DepositFailed' then e.data->>'reason' end as failure_reason
            from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
           where e.type in ('DepositSettled', 'DepositFailed')
           order by e.data->>'walletId', e.stream_id, e.tx_id desc, e.position desc) c
   where h.account_id = c.account_id and h.stream_id = c.stream_id;
  end if;

  if p_types && array['DepositRequested', 'DepositReversed', 'TransferCompleted', 'TransferReversed',
                      'MoneyRequestAccepted', 'MoneyRequestPaymentReversed'] then
  with movements as (
    select e.position, e.tx_id, e.stream_id, e.type, e.recorded_at,
           projector.transaction_id(e.type, e.data) as transaction_id,
           projector.history_sender(e.type, e.data) as sender_id,
           projector.history_receiver(e.type, e.data) as receiver_id,
           projector.history_funding(e.type, e.data) as funding_id,
           (e.data->>'amountPaise')::bigint as amount_paise,
           projector.history_reference(e.type, e.data) as reference,
           projector.history_method(e.type, e.data) as method
      from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
     where e.type in ('DepositRequested', 'DepositReversed', 'TransferCompleted', 'TransferReversed',
                      'MoneyRequestAccepted', 'MoneyRequestPaymentReversed')
  ),
  rows as (
    -- The sender's row; for a deposit request, the wallet's 'deposit' row.
    select m.*, m.sender_id as account_id,
           case when m.type = 'DepositRequested' then 'deposit' else 'debit' end as row_type,
           coalesce(m.funding_id, m.receiver_id) as counterparty_id
      from movements m
    union all
    -- The receiver's row, when the receiver is a wallet.
    select m.*, m.receiver_id, 'credit', m.sender_id
      from movements m
     where m.funding_id is null
  ),
  -- A deposit settled or failed in this range, after its request in this range.
  answers as (
    select distinct on (e.stream_id) e.stream_id,
           case e.type when 'DepositSettled' then 'success' else 'failed' end as status, e.recorded_at,
           case when e.type = 'DepositFailed' then e.data->>'reason' end as failure_reason
      from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
     where e.type in ('DepositSettled', 'DepositFailed')
     order by e.stream_id, e.tx_id desc, e.position desc
  ),
  names as (
    select c.account_id,
           coalesce(projector.funding_name(c.account_id), w.data->>'displayName', c.account_id) as display_name
      from (select distinct counterparty_id as account_id from rows) c
      left join lateral (select e.data from ledger.events e
                          where e.stream_id = 'wallet-' || c.account_id and e.stream_version = 0 and e.type = 'WalletOpened'
                         offset 0) w on true
  ),
  -- Each account's rows before this range, and this range's: its rows are keyed for search once
  -- there are more than read.history_keys_after_rows() (projections/history/search-keys.sql).
  totals as (
    select t.account_id, t.added,
           coalesce((select sum(c.rows) from {schema}.history_counts c where c.account_id = t.account_id), 0) as before
      from (select account_id, count(*) as added from rows group by account_id) t
  ),
  -- An account passing the bound in this range: its new rows are inserted keyed, and its earlier
  -- ones are keyed after the round, in a transaction of their own (projector.key_earlier_history,
  -- below): 2,000 rows updated with their search keys took ~1 s, and every reply waiting for the
  -- round waited it out. Until then the account is listed here and a search walks its rows.
  keying_queued as (
    insert into {schema}.history_keying (account_id)
    select t.account_id from totals t
     where t.before <= read.history_keys_after_rows() and t.before + t.added > read.history_keys_after_rows()
    on conflict do nothing
  ),
  inserted as (
    insert into {schema}.history (account_id, stream_id, transaction_id, type, sender_id, receiver_id, counterparty_id,
                              counterparty_name, amount_paise, reference, status, method, created_at, updated_at,
                              tx_id, position, failure_reason, keyed)
    select r.account_id, r.stream_id, r.transaction_id, r.row_type, r.sender_id, r.receiver_id, r.counterparty_id,
           n.display_name, r.amount_paise, r.reference,
           case when r.type = 'DepositRequested' then coalesce(a.status, 'pending') else 'success' end,
           r.method, r.recorded_at,
           case when r.type = 'DepositRequested' then coalesce(a.recorded_at, r.recorded_at) else r.recorded_at end,
           r.tx_id, r.position, case when r.type = 'DepositRequested' then a.failure_reason end,
           t.before + t.added > read.history_keys_after_rows()
      from rows r
      join names n on n.account_id = r.counterparty_id
      join totals t on t.account_id = r.account_id
      left join answers a on r.type = 'DepositRequested' and a.stream_id = r.stream_id
    returning account_id, type
  )
  insert into {schema}.history_counts as t (account_id, type, rows)
  select account_id, type, count(*) from inserted group by account_id, type
  on conflict (account_id, type) do update set rows = t.rows + excluded.rows;
  end if;

  -- Who made each event (any type): the admin explorer's actor filter (audit/explorer.ts) reads
  -- it here rather than through an index on the log that every append would pay for.
  insert into {schema}.event_actors (actor_id, position)
  select e.metadata->>'actorId', e.position
    from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
   where e.metadata ? 'actorId'
  on conflict do nothing;
$rule$);

-- Replay's bulk load (projections/engine/replay.ts): the rows the rule above gives when applied
-- chunk by chunk from the first event, made in one set-based pass over the log up to
-- (p_to_tx, p_to_position), a checkpoint behind the xmin gate. A deposit request's row takes
-- its status and time from the last settlement or failure of its stream up to there (what the
-- rule's in-range answers and its update of earlier requests leave). The rows are split into
-- p_parts parts by a hash of their account (projector.account_part, as accounts' load), the
-- actor rows by a hash of their actor, and a call loads part p_part, so the parts load at once
-- on several connections: a part's counts are complete, since all of an account's rows are in
-- its part. Writes read_rebuild_history only, as the runtime role (SECURITY INVOKER). Nested
-- loops priced out and a large work_mem for the same reasons as accounts' load.
create or replace function projector.bulk_replay_history(
  p_to_tx xid8, p_to_position bigint, p_parts integer, p_part integer
) returns void language plpgsql set enable_nestloop = off set work_mem = '256MB' as $fn$
begin
  with movements as (
    select e.position, e.tx_id, e.stream_id, e.type, e.recorded_at,
           projector.transaction_id(e.type, e.data) as transaction_id,
           projector.history_sender(e.type, e.data) as sender_id,
           projector.history_receiver(e.type, e.data) as receiver_id,
           projector.history_funding(e.type, e.data) as funding_id,
           (e.data->>'amountPaise')::bigint as amount_paise,
           projector.history_reference(e.type, e.data) as reference,
           projector.history_method(e.type, e.data) as method
      from ledger.events e
     where e.type in ('DepositRequested', 'DepositReversed', 'TransferCompleted', 'TransferReversed',
                      'MoneyRequestAccepted', 'MoneyRequestPaymentReversed')
       and (e.tx_id, e.position) <= (p_to_tx, p_to_position)
  ),
  rows as (
    select r.* from (
      select m.*, m.sender_id as account_id,
             case when m.type = 'DepositRequested' then 'deposit' else 'debit' end as row_type,
             coalesce(m.funding_id, m.receiver_id) as counterparty_id
        from movements m
      union all
      select m.*, m.receiver_id, 'credit', m.sender_id
        from movements m
       where m.funding_id is null
    ) r
     where projector.account_part(r.account_id, p_parts) = p_part
  ),
  answers as (
    select distinct on (e.stream_id) e.stream_id,
           case e.type when 'DepositSettled' then 'success' else 'failed' end as status, e.recorded_at,
           case when e.type = 'DepositFailed' then e.data->>'reason' end as failure_reason
      from ledger.events e
     where e.type in ('DepositSettled', 'DepositFailed')
       and (e.tx_id, e.position) <= (p_to_tx, p_to_position)
       and projector.account_part(e.data->>'walletId', p_parts) = p_part
     order by e.stream_id, e.tx_id desc, e.position desc
  ),
  names as (
    select c.account_id,
           coalesce(projector.funding_name(c.account_id), w.data->>'displayName', c.account_id) as display_name
      from (select distinct counterparty_id as account_id from rows) c
      left join (select e.stream_id, e.data from ledger.events e
                  where e.type = 'WalletOpened' and e.stream_version = 0) w on w.stream_id = 'wallet-' || c.account_id
  ),
  -- Every row of an account is in this part: its rows are keyed as the rule leaves them. Counted
  -- by a hash aggregate, not a window over the rows (that sorted every wide row by account).
  keyed as (
    select account_id, count(*) > read.history_keys_after_rows() as keyed from rows group by account_id
  ),
  inserted as (
    insert into read_rebuild_history.history (account_id, stream_id, transaction_id, type, sender_id, receiver_id,
                              counterparty_id, counterparty_name, amount_paise, reference, status, method, created_at,
                              updated_at, tx_id, position, failure_reason, keyed)
    select r.account_id, r.stream_id, r.transaction_id, r.row_type, r.sender_id, r.receiver_id, r.counterparty_id,
           n.display_name, r.amount_paise, r.reference,
           case when r.type = 'DepositRequested' then coalesce(a.status, 'pending') else 'success' end,
           r.method, r.recorded_at,
           case when r.type = 'DepositRequested' then coalesce(a.recorded_at, r.recorded_at) else r.recorded_at end,
           r.tx_id, r.position, case when r.type = 'DepositRequested' then a.failure_reason end, k.keyed
      from rows r
      join names n on n.account_id = r.counterparty_id
      join keyed k on k.account_id = r.account_id
      left join answers a on r.type = 'DepositRequested' and a.stream_id = r.stream_id
    returning account_id, type
  )
  insert into read_rebuild_history.history_counts (account_id, type, rows)
  select account_id, type, count(*) from inserted group by account_id, type;

  insert into read_rebuild_history.event_actors (actor_id, position)
  select e.metadata->>'actorId', e.position
    from ledger.events e
   where e.metadata ? 'actorId'
     and (e.tx_id, e.position) <= (p_to_tx, p_to_position)
     and projector.account_part(e.metadata->>'actorId', p_parts) = p_part;
end
$fn$;

-- After the rounds (the projection's `afterRounds`, projections/engine/projector.ts): the earlier
-- rows of an account that passed the bound, keyed in transactions of their own that no reply
-- waits for, up to p_rows rows a call, so no row stays locked long (a deposit's settlement
-- updates its row). The account leaves history_keying in the call that finds fewer than p_rows
-- left, so a search walks its rows until every one of them is keyed (projections/history/queries.ts).
-- Several workers skip each other's accounts. Returns the rows keyed, and one more when the
-- account is done: 0 when none waits. Live tables only: a replay keys every row of its load,
-- and what its tail queues here is swapped in and done after.
create or replace function projector.key_earlier_history(p_rows integer) returns integer
language plpgsql as $fn$
declare
  v_account text;
  v_keyed integer;
begin
  select account_id into v_account from read.history_keying order by account_id limit 1 for update skip locked;
  if not found then
    return 0;
  end if;
  update read.history h set keyed = true
   where (h.account_id, h.stream_id, h.position) in (
           select account_id, stream_id, position from read.history
            where account_id = v_account and not keyed limit p_rows);
  get diagnostics v_keyed = row_count;
  if v_keyed < p_rows then
    delete from read.history_keying where account_id = v_account;
    return v_keyed + 1;
  end if;
  return v_keyed;
end
$fn$;
