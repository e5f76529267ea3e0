-- Projection "money_requests" (projections/money-requests/projection.ts): every request with
-- both parties' names, its status and when it was made and last answered.
-- The rule is instantiated by pg_temp.define_rule (projections/engine/rules.sql): `{schema}` is
-- `read` or `read_rebuild_money_requests`.
select pg_temp.define_rule('money_requests', $rule$
  -- Answers to requests made before this range (first: a request made in this range is
  -- inserted with its answer below).
  update {schema}.money_requests m
     set status = a.status, updated_at = a.recorded_at
    from (select distinct on (e.data->>'requestId') e.data->>'requestId' as request_id,
                 case e.type when 'MoneyRequestAccepted' then 'accepted' else 'rejected' end as status,
                 e.recorded_at
            from projector.events_in_range(p_from_tx, p_from_position, p_to_tx, p_to_position) e
           where e.type in ('MoneyRequestAccepted', 'MoneyRequestRejected')
           order by e.data->>'requestId', e.tx_id desc, e.position desc) a
   where m.request_id = a.request_id;

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
$rule$);
