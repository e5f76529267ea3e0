-- Projection "money_requests" (projections/money-requests/projection.ts): every request with
-- both parties' names, its status and when it was made and last answered.
-- The rule is instantiated by pg_temp.define_rule (projections/engine/rules.sql): `{schema}` is
-- `read` or `read_rebuild_money_requests`.
select pg_temp.define_rule('money_requests', $rule$
  -- Answers to requests made before this range (first: a request made in this range is
  -- inserted with its answer below). Each statement runs only when the range holds its types
  -- (p_types: projector.range_types); a payment's round holds neither.
  if p_types && array['MoneyRequestAccepted', 'MoneyRequestRejected'] then
  update {schema}.money_requests m
     set status = a.status, updated_at = a.recorded_at
    from (select distinct on (e.data->>'requestId') e.data->>'requestId' as request_id,
                 case e.type when 'MoneyRequestAccepted' then 'accepted' else 'rejected' end as status,
                 e.recorded_at
            from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
           where e.type in ('MoneyRequestAccepted', 'MoneyRequestRejected')
           order by e.data->>'requestId', e.tx_id desc, e.position desc) a
   where m.request_id = a.request_id;
  end if;

  if p_types && array['MoneyRequested'] then
  with requests as (
    select e.data->>'requestId' as request_id, e.data->>'requesterId' as requester_id,
           e.data->>'payerId' as payer_id, (e.data->>'amountPaise')::bigint as amount_paise,
           e.data->>'reference' as reference, e.recorded_at, e.position
      from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
     where e.type = 'MoneyRequested'
  ),
  answers as (
    select distinct on (e.data->>'requestId') e.data->>'requestId' as request_id,
           case e.type when 'MoneyRequestAccepted' then 'accepted' else 'rejected' end as status,
           e.recorded_at
      from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
     where e.type in ('MoneyRequestAccepted', 'MoneyRequestRejected')
     order by e.data->>'requestId', e.tx_id desc, e.position desc
  ),
  names as (
    select c.account_id, coalesce(w.data->>'displayName', c.account_id) as display_name
      from (select requester_id as account_id from requests union select payer_id from requests) c
      left join lateral (select e.data from ledger.events e
                          where e.stream_id = 'wallet-' || c.account_id and e.stream_version = 0 and e.type = 'WalletOpened'
                         offset 0) w on true
  )
  insert into {schema}.money_requests (request_id, requester_id, requester_name, payer_id, payer_name, amount_paise,
                                   reference, status, created_at, updated_at, position)
  select r.request_id, r.requester_id, rn.display_name, r.payer_id, pn.display_name, r.amount_paise, r.reference,
         coalesce(a.status, 'pending'), r.recorded_at, coalesce(a.recorded_at, r.recorded_at), r.position
    from requests r
    join names rn on rn.account_id = r.requester_id
    join names pn on pn.account_id = r.payer_id
    left join answers a on a.request_id = r.request_id;
  end if;
$rule$);

-- Replay's bulk load (projections/engine/replay.ts): the rows the rule above gives when applied
-- chunk by chunk from the first event, in one set-based pass over the log up to
-- (p_to_tx, p_to_position), a checkpoint behind the xmin gate: every request with its parties'
-- names and its last answer up to there (what the rule's in-range answers and its update of
-- earlier requests leave). The requests are split into p_parts parts by a hash of their id
-- (projector.account_part), a request and its answers in the same part; a call loads part
-- p_part, so the parts load at once on several connections. Writes read_rebuild_money_requests
-- only, as the runtime role (SECURITY INVOKER). Nested loops priced out and a large work_mem
-- for the same reasons as accounts' load (projections/accounts/rules.sql).
create or replace function projector.bulk_replay_money_requests(
  p_to_tx xid8, p_to_position bigint, p_parts integer, p_part integer
) returns void language plpgsql set enable_nestloop = off set work_mem = '256MB' as $fn$
begin
  with requests as (
    select e.data->>'requestId' as request_id, e.data->>'requesterId' as requester_id,
           e.data->>'payerId' as payer_id, (e.data->>'amountPaise')::bigint as amount_paise,
           e.data->>'reference' as reference, e.recorded_at, e.position
      from ledger.events e
     where e.type = 'MoneyRequested'
       and (e.tx_id, e.position) <= (p_to_tx, p_to_position)
       and projector.account_part(e.data->>'requestId', p_parts) = p_part
  ),
  answers as (
    select distinct on (e.data->>'requestId') e.data->>'requestId' as request_id,
           case e.type when 'MoneyRequestAccepted' then 'accepted' else 'rejected' end as status,
           e.recorded_at
      from ledger.events e
     where e.type in ('MoneyRequestAccepted', 'MoneyRequestRejected')
       and (e.tx_id, e.position) <= (p_to_tx, p_to_position)
       and projector.account_part(e.data->>'requestId', p_parts) = p_part
     order by e.data->>'requestId', e.tx_id desc, e.position desc
  ),
  names as (
    select e.stream_id, e.data->>'displayName' as display_name
      from ledger.events e
     where e.type = 'WalletOpened' and e.stream_version = 0
  )
  insert into read_rebuild_money_requests.money_requests (request_id, requester_id, requester_name, payer_id,
                                   payer_name, amount_paise, reference, status, created_at, updated_at, position)
  select r.request_id, r.requester_id, coalesce(rn.display_name, r.requester_id), r.payer_id,
         coalesce(pn.display_name, r.payer_id), r.amount_paise, r.reference,
         coalesce(a.status, 'pending'), r.recorded_at, coalesce(a.recorded_at, r.recorded_at), r.position
    from requests r
    left join names rn on rn.stream_id = 'wallet-' || r.requester_id
    left join names pn on pn.stream_id = 'wallet-' || r.payer_id
    left join answers a on a.request_id = r.request_id;
end
$fn$;
