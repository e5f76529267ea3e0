/**
 * The projections' rules as set-based SQL (issue: the read side at the database's speed).
 * One function per projection, `projector.apply_<name>(schema, from, to)`, applies every
 * committed event in the read-order range (from, to] - a (tx_id, position) pair each,
 * chosen by the caller behind the xmin gate (projections/engine/event-range.ts) - to that
 * projection's tables in `schema`: `read` for the live projector, `read_rebuild_<name>` for
 * a replay. A batch of N events costs a few INSERT ... SELECT / UPDATE ... FROM statements
 * over the range, not N decodes in Node; the live projector and replay run the same rules.
 *
 * The functions run as their caller (SECURITY INVOKER): the runtime role, which may read the
 * ledger and write the read tables and a replay's rebuild tables, and nothing else.
 *
 * Why the rules live here and not in the projection's folder: only migrations change the
 * schema (the runtime role has no DDL rights), and a migration is forward-only, so a rule
 * that changes is a later migration that replaces its function. Each projection's folder
 * says which function holds its rules (ARCHITECTURE.md, "Projections").
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
create schema projector;

-- The three funding accounts' display names (a wallet's is in its WalletOpened event).
create function projector.funding_name(p_account_id text) returns text
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
create function projector.transaction_id(p_type text, p_data jsonb) returns text
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
-- index and nothing else. A function and not a predicate in each statement: planned with its
-- own bounds (EXECUTE), and a fence the statements' type filters cannot reach through, so the
-- planner never ANDs the range with an index on type (every DepositSettled of the whole log
-- scanned for a batch of 500 events, growing with the log). Its row estimate is a replay
-- chunk's size: with a live batch's (500) the planner joined a 20,000-event chunk's rows to
-- its deposit answers by nested loop (5.6 s instead of 0.5 s); a live batch's small joins
-- cost the same either way.
create function projector.events_in_range(
  p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint
) returns setof ledger.events language plpgsql stable rows 20000 as $fn$
begin
  return query execute
    'select * from ledger.events e
      where e.tx_id between $1 and $3 and (e.tx_id, e.position) > ($1, $2) and (e.tx_id, e.position) <= ($3, $4)
      order by e.tx_id, e.position'
    using p_from_tx, p_from_position, p_to_tx, p_to_position;
end
$fn$;

-- A projection writes its own tables, live or in its own rebuild schema, and no others.
create function projector.assert_target(p_schema text, p_projection text) returns void
language plpgsql immutable as $fn$
begin
  if p_schema is distinct from 'read' and p_schema is distinct from 'read_rebuild_' || p_projection then
    raise exception 'projection % may not write schema %', p_projection, p_schema;
  end if;
end
$fn$;

-- A wallet's name is in its WalletOpened event, the first of its stream (version 0): looked
-- up by the full unique key (stream_id, stream_version), so no stale statistic makes the
-- planner AND it with the index on type (a scan of every WalletOpened per name).
-- Postings are joined per event (LATERAL ... OFFSET 0, which the planner may not flatten): a
-- range's row estimate from a (tx_id, position) comparison can be off by orders of magnitude,
-- and a hash join on that estimate reads every posting of the ledger for a batch of a few.
-- Projection "accounts": the directory of display names, every account's balance and
-- per-account statements with a running balance. A wallet posting's running balance and
-- sequence are the ledger's own (taken under the wallet's row lock); a funding posting's are
-- counted here in read order, which is the same for the live projector and a replay.
-- Balances are sums of amounts, never a last balance_after: read order is (tx_id, position),
-- not the order of the row locks.
create function projector.apply_accounts(
  p_schema text, p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint
) returns void language plpgsql as $fn$
begin
  perform projector.assert_target(p_schema, 'accounts');

  execute format($q$
    insert into %1$I.directory (account_id, display_name, kind, opened_at)
    select e.data->>'accountId', e.data->>'displayName', 'wallet', e.recorded_at
      from projector.events_in_range($1, $2, $3, $4) e
       where e.type = 'WalletOpened'
  $q$, p_schema) using p_from_tx, p_from_position, p_to_tx, p_to_position;

  -- A funding account appears in the directory with its first posting.
  execute format($q$
    insert into %1$I.directory (account_id, display_name, kind, opened_at)
    select distinct on (p.account_id) p.account_id, projector.funding_name(p.account_id), 'funding', e.recorded_at
      from projector.events_in_range($1, $2, $3, $4) e
      cross join lateral (select * from ledger.postings p where p.position = e.position offset 0) p
       where projector.funding_name(p.account_id) is not null
     order by p.account_id, e.tx_id, e.position
    on conflict do nothing
  $q$, p_schema) using p_from_tx, p_from_position, p_to_tx, p_to_position;

  -- Statements first: a funding posting's running figures start from the balance row as it
  -- was before this range.
  execute format($q$
    with lines as (
      select p.account_id, p.amount, p.account_seq, p.balance_after,
             e.position, e.tx_id, e.type, e.stream_id, e.recorded_at,
             projector.transaction_id(e.type, e.data) as transaction_id,
             count(*) over event_lines as line_count,
             min(p.account_id) over event_lines as first_account,
             max(p.account_id) over event_lines as last_account
        from projector.events_in_range($1, $2, $3, $4) e
        cross join lateral (select * from ledger.postings p where p.position = e.position offset 0) p
      window event_lines as (partition by e.position)
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
        left join %1$I.balances b on b.account_id = s.account_id
      window account_order as (partition by s.account_id order by s.tx_id, s.position)
    ),
    names as (
      select c.account_id,
             coalesce(projector.funding_name(c.account_id), w.data->>'displayName', c.account_id) as display_name
        from (select distinct counterparty_id as account_id from sided where counterparty_id is not null) c
        left join ledger.events w on w.stream_id = 'wallet-' || c.account_id and w.stream_version = 0 and w.type = 'WalletOpened'
    )
    insert into %1$I.statements (account_id, position, tx_id, sequence, event_type, stream_id, transaction_id,
                                 counterparty_id, counterparty_name, amount_paise, balance_after_paise, recorded_at)
    select r.account_id, r.position, r.tx_id, coalesce(r.account_seq, r.running_count), r.type, r.stream_id,
           r.transaction_id, r.counterparty_id, n.display_name, r.amount,
           coalesce(r.balance_after, r.running_balance), r.recorded_at
      from running r
      left join names n on n.account_id = r.counterparty_id
  $q$, p_schema) using p_from_tx, p_from_position, p_to_tx, p_to_position;

  -- Balances: a wallet opened gets its row at zero; postings add up. The last position and
  -- time are the last in read order.
  execute format($q$
    with touches as (
      select p.account_id, p.amount, 1 as line, e.tx_id, e.position, e.recorded_at
        from projector.events_in_range($1, $2, $3, $4) e
        cross join lateral (select * from ledger.postings p where p.position = e.position offset 0) p
      union all
      select e.data->>'accountId', 0, 0, e.tx_id, e.position, e.recorded_at
        from projector.events_in_range($1, $2, $3, $4) e
       where e.type = 'WalletOpened'
    )
    insert into %1$I.balances as b (account_id, balance_paise, postings_count, last_position, updated_at)
    select t.account_id, sum(t.amount), sum(t.line),
           (array_agg(t.position order by t.tx_id desc, t.position desc) filter (where t.line = 1))[1],
           (array_agg(t.recorded_at order by t.tx_id desc, t.position desc))[1]
      from touches t
     group by t.account_id
    on conflict (account_id) do update
       set balance_paise = b.balance_paise + excluded.balance_paise,
           postings_count = b.postings_count + excluded.postings_count,
           last_position = coalesce(excluded.last_position, b.last_position),
           updated_at = excluded.updated_at
  $q$, p_schema) using p_from_tx, p_from_position, p_to_tx, p_to_position;
end
$fn$;

-- Projection "history": each user's transaction list, one row per participant of each money
-- movement, typed as that participant sees it: 'deposit' (sender = receiver = the wallet; the
-- counterparty is the funding account), 'debit' for the sender, 'credit' for the receiver. A
-- deposit request is a pending row that its settlement or failure later updates in place. A
-- reversal adds new rows - 'debit' for whoever gives the money back, 'credit' for whoever
-- gets it - referenced "Reversal: <reason>"; the original rows stay as they were. It also
-- keeps each user's number of rows per type (history_counts) for page totals.
create function projector.apply_history(
  p_schema text, p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint
) returns void language plpgsql as $fn$
begin
  perform projector.assert_target(p_schema, 'history');

  -- Settlements and failures of deposits requested before this range. First, so that a
  -- reversal row this range adds on the same stream keeps its own status and time.
  execute format($q$
    update %1$I.history h
       set status = c.status, updated_at = c.recorded_at
      from (select distinct on (e.data->>'walletId', e.stream_id)
                   e.data->>'walletId' as account_id, e.stream_id,
                   case e.type when 'DepositSettled' then 'success' else 'failed' end as status, e.recorded_at
              from projector.events_in_range($1, $2, $3, $4) e
             where e.type in ('DepositSettled', 'DepositFailed')
             order by e.data->>'walletId', e.stream_id, e.tx_id desc, e.position desc) c
     where h.account_id = c.account_id and h.stream_id = c.stream_id
  $q$, p_schema) using p_from_tx, p_from_position, p_to_tx, p_to_position;

  execute format($q$
    with movements as (
      select e.position, e.tx_id, e.stream_id, e.type, e.recorded_at,
             projector.transaction_id(e.type, e.data) as transaction_id,
             case e.type
               when 'TransferCompleted' then e.data->>'fromAccountId'
               when 'MoneyRequestAccepted' then e.data->>'payerId'
               when 'TransferReversed' then e.data->>'toAccountId'        -- the receiver gives it back
               when 'MoneyRequestPaymentReversed' then e.data->>'requesterId'
               else e.data->>'walletId'                                   -- deposits and their reversals
             end as sender_id,
             case e.type
               when 'TransferCompleted' then e.data->>'toAccountId'
               when 'MoneyRequestAccepted' then e.data->>'requesterId'
               when 'TransferReversed' then e.data->>'fromAccountId'
               when 'MoneyRequestPaymentReversed' then e.data->>'payerId'
               when 'DepositRequested' then e.data->>'walletId'
               when 'DepositReversed' then 'funding:' || (e.data->>'method')
             end as receiver_id,
             case when e.type in ('DepositRequested', 'DepositReversed') then 'funding:' || (e.data->>'method') end
               as funding_id,
             (e.data->>'amountPaise')::bigint as amount_paise,
             case when e.type in ('TransferReversed', 'DepositReversed', 'MoneyRequestPaymentReversed')
                  then 'Reversal: ' || (e.data->>'reason') else e.data->>'reference' end as reference,
             case e.type
               when 'TransferCompleted' then 'transfer'
               when 'MoneyRequestAccepted' then 'request'
               when 'DepositRequested' then e.data->>'method'
               else 'reversal'
             end as method
        from projector.events_in_range($1, $2, $3, $4) e
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
             case e.type when 'DepositSettled' then 'success' else 'failed' end as status, e.recorded_at
        from projector.events_in_range($1, $2, $3, $4) e
       where e.type in ('DepositSettled', 'DepositFailed')
       order by e.stream_id, e.tx_id desc, e.position desc
    ),
    names as (
      select c.account_id,
             coalesce(projector.funding_name(c.account_id), w.data->>'displayName', c.account_id) as display_name
        from (select distinct counterparty_id as account_id from rows) c
        left join ledger.events w on w.stream_id = 'wallet-' || c.account_id and w.stream_version = 0 and w.type = 'WalletOpened'
    ),
    inserted as (
      insert into %1$I.history (account_id, stream_id, transaction_id, type, sender_id, receiver_id, counterparty_id,
                                counterparty_name, amount_paise, reference, status, method, created_at, updated_at,
                                tx_id, position)
      select r.account_id, r.stream_id, r.transaction_id, r.row_type, r.sender_id, r.receiver_id, r.counterparty_id,
             n.display_name, r.amount_paise, r.reference,
             case when r.type = 'DepositRequested' then coalesce(a.status, 'pending') else 'success' end,
             r.method, r.recorded_at,
             case when r.type = 'DepositRequested' then coalesce(a.recorded_at, r.recorded_at) else r.recorded_at end,
             r.tx_id, r.position
        from rows r
        join names n on n.account_id = r.counterparty_id
        left join answers a on r.type = 'DepositRequested' and a.stream_id = r.stream_id
      returning account_id, type
    )
    insert into %1$I.history_counts as t (account_id, type, rows)
    select account_id, type, count(*) from inserted group by account_id, type
    on conflict (account_id, type) do update set rows = t.rows + excluded.rows
  $q$, p_schema) using p_from_tx, p_from_position, p_to_tx, p_to_position;
end
$fn$;

-- Projection "money_requests": every request with both parties' names, its status and when
-- it was made and last answered.
create function projector.apply_money_requests(
  p_schema text, p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint
) returns void language plpgsql as $fn$
begin
  perform projector.assert_target(p_schema, 'money_requests');

  -- Answers to requests made before this range (first: a request made in this range is
  -- inserted with its answer below).
  execute format($q$
    update %1$I.money_requests m
       set status = a.status, updated_at = a.recorded_at
      from (select distinct on (e.data->>'requestId') e.data->>'requestId' as request_id,
                   case e.type when 'MoneyRequestAccepted' then 'accepted' else 'rejected' end as status,
                   e.recorded_at
              from projector.events_in_range($1, $2, $3, $4) e
             where e.type in ('MoneyRequestAccepted', 'MoneyRequestRejected')
             order by e.data->>'requestId', e.tx_id desc, e.position desc) a
     where m.request_id = a.request_id
  $q$, p_schema) using p_from_tx, p_from_position, p_to_tx, p_to_position;

  execute format($q$
    with requests as (
      select e.data->>'requestId' as request_id, e.data->>'requesterId' as requester_id,
             e.data->>'payerId' as payer_id, (e.data->>'amountPaise')::bigint as amount_paise,
             e.data->>'reference' as reference, e.recorded_at, e.position
        from projector.events_in_range($1, $2, $3, $4) e
       where e.type = 'MoneyRequested'
    ),
    answers as (
      select distinct on (e.data->>'requestId') e.data->>'requestId' as request_id,
             case e.type when 'MoneyRequestAccepted' then 'accepted' else 'rejected' end as status,
             e.recorded_at
        from projector.events_in_range($1, $2, $3, $4) e
       where e.type in ('MoneyRequestAccepted', 'MoneyRequestRejected')
       order by e.data->>'requestId', e.tx_id desc, e.position desc
    ),
    names as (
      select c.account_id, coalesce(w.data->>'displayName', c.account_id) as display_name
        from (select requester_id as account_id from requests union select payer_id from requests) c
        left join ledger.events w on w.stream_id = 'wallet-' || c.account_id and w.stream_version = 0 and w.type = 'WalletOpened'
    )
    insert into %1$I.money_requests (request_id, requester_id, requester_name, payer_id, payer_name, amount_paise,
                                     reference, status, created_at, updated_at, position)
    select r.request_id, r.requester_id, rn.display_name, r.payer_id, pn.display_name, r.amount_paise, r.reference,
           coalesce(a.status, 'pending'), r.recorded_at, coalesce(a.recorded_at, r.recorded_at), r.position
      from requests r
      join names rn on rn.account_id = r.requester_id
      join names pn on pn.account_id = r.payer_id
      left join answers a on a.request_id = r.request_id
  $q$, p_schema) using p_from_tx, p_from_position, p_to_tx, p_to_position;
end
$fn$;
`.execute(db);
}
