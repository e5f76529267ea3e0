/**
 * Projection "statements" (issue 18, statements and charts for users): per wallet and per
 * calendar day, money in, money out (paise), the closing balance and the number of postings.
 * The day is the Asia/Kolkata calendar day (UTC+05:30, no daylight saving): the product is
 * for Indian consumers, and a statement "for 1 March" must mean their 1 March, whatever the
 * server's time zone.
 *
 * Built like the other three (migrations/0014_sql_projections.ts): one table in `read`, its
 * checkpoint row, its row in replay's allow-list, and its rules as one set-based function,
 * `projector.apply_statements(schema, from, to)`, called by the live projector with `read`
 * and by replay with `read_rebuild_statements`. A database migrated with events already in
 * the log starts this projection at the first event: the live projector catches it up.
 *
 * Rows are derived from postings, not from event types: every event that moves a wallet
 * (deposits settled, transfers, accepted requests, every reversal) has a wallet posting, and
 * a new event type that moves money is counted without teaching it anything. Funding
 * accounts (postings without `account_seq`) have no statement.
 *
 * A closing balance is the sum of the wallet's amounts of every day up to and including
 * that one, never a `balance_after`: read order is (tx_id, position), and a transaction
 * that began before midnight can take the wallet's lock after one that began after it, so
 * "the last balance_after of the day" would count a posting of the next day. Summing per day
 * makes closing(D) = closing(D - 1) + in(D) - out(D) hold always, in whatever order the
 * events are read; a range that brings a posting for a day before days already projected
 * (such a transaction committing late) moves those later days' closing balances too.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
create table read.statement_days (
  account_id text not null,
  -- The Asia/Kolkata calendar day of the events' recorded_at.
  day date not null,
  money_in_paise bigint not null check (money_in_paise >= 0),
  money_out_paise bigint not null check (money_out_paise >= 0),
  closing_balance_paise bigint not null,
  postings_count bigint not null check (postings_count > 0),
  primary key (account_id, day)
);

insert into read.checkpoints (projection) values ('statements');
insert into replay.projection_tables (projection, table_name) values ('statements', 'statement_days');

-- A range's wallet postings summed per wallet and day. A function so the two statements of
-- apply_statements read the range the same way (through events_in_range: the (tx_id,
-- position) index and nothing else; postings joined per event, see 0014).
create function projector.statement_deltas(
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

create function projector.apply_statements(
  p_schema text, p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint
) returns void language plpgsql as $fn$
begin
  perform projector.assert_target(p_schema, 'statements');

  -- Days already projected: each gains its own day's figures, and its closing balance every
  -- net amount of this range on that day or before it. Usually only today's row of each
  -- wallet qualifies (a key lookup per wallet); a late commit across midnight moves the later days.
  execute format($q$
    with deltas as materialized (select * from projector.statement_deltas($1, $2, $3, $4)),
    shifts as (
      select t.account_id, t.day, sum(d.net) as net,
             coalesce(sum(d.money_in) filter (where d.day = t.day), 0) as money_in,
             coalesce(sum(d.money_out) filter (where d.day = t.day), 0) as money_out,
             coalesce(sum(d.postings) filter (where d.day = t.day), 0) as postings
        from %1$I.statement_days t
        join deltas d on d.account_id = t.account_id and d.day <= t.day
       group by t.account_id, t.day
    )
    update %1$I.statement_days t
       set money_in_paise = t.money_in_paise + s.money_in,
           money_out_paise = t.money_out_paise + s.money_out,
           closing_balance_paise = t.closing_balance_paise + s.net,
           postings_count = t.postings_count + s.postings
      from shifts s
     where t.account_id = s.account_id and t.day = s.day
  $q$, p_schema) using p_from_tx, p_from_position, p_to_tx, p_to_position;

  -- New days: the closing balance continues from the wallet's latest day before it (already
  -- moved above by this range's earlier days), plus this range's net amounts after that day
  -- up to this one (all of them new days: none exists in between).
  execute format($q$
    with deltas as materialized (select * from projector.statement_deltas($1, $2, $3, $4)),
    fresh as (
      select d.* from deltas d
       where not exists (select 1 from %1$I.statement_days t where t.account_id = d.account_id and t.day = d.day)
    )
    insert into %1$I.statement_days (account_id, day, money_in_paise, money_out_paise, closing_balance_paise, postings_count)
    select f.account_id, f.day, f.money_in, f.money_out,
           coalesce(prior.closing_balance_paise, 0)
             + (select sum(d.net) from deltas d
                 where d.account_id = f.account_id and d.day <= f.day
                   and (prior.day is null or d.day > prior.day)),
           f.postings
      from fresh f
      left join lateral (
        select t.day, t.closing_balance_paise from %1$I.statement_days t
         where t.account_id = f.account_id and t.day < f.day
         order by t.day desc limit 1
      ) prior on true
  $q$, p_schema) using p_from_tx, p_from_position, p_to_tx, p_to_position;
end
$fn$;
`.execute(db);
}
