/**
 * Projection "statements", its rule in one statement (migrations/0016_statements_projection.ts
 * has the projection and why closing balances are sums per day).
 *
 * 0016 applied a range with two statements - update the days already projected, then insert
 * the new ones - and each computed the range's per-day sums again (two range scans, two
 * postings joins, two aggregations per batch, on every command's path to its reply since
 * replies wait for every projection). Here the update runs as a data-modifying CTE of the
 * insert, over one materialized set of sums.
 *
 * Both parts read the same snapshot, so the insert no longer sees the update's new closing
 * balances; it does not need to: a new day's closing balance is the latest earlier day's
 * closing balance before this range, plus the range's net amounts of every day up to the new
 * one - those before or on the earlier day are exactly what the update adds to it, those
 * after it are the new days' own. So closing(new day) = closing_before(prior day) + the
 * range's net up to the new day, with 0 for a wallet with no earlier day. The update and the
 * insert touch disjoint rows (existing days, new days).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
create or replace function projector.apply_statements(
  p_schema text, p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint
) returns void language plpgsql as $fn$
begin
  perform projector.assert_target(p_schema, 'statements');

  execute format($q$
    with deltas as materialized (select * from projector.statement_deltas($1, $2, $3, $4)),
    -- Days already projected: each gains its own day's figures, and its closing balance every
    -- net amount of this range on that day or before it (usually only today's row of each
    -- wallet qualifies; a late commit across midnight moves the later days).
    shifts as (
      select t.account_id, t.day, sum(d.net) as net,
             coalesce(sum(d.money_in) filter (where d.day = t.day), 0) as money_in,
             coalesce(sum(d.money_out) filter (where d.day = t.day), 0) as money_out,
             coalesce(sum(d.postings) filter (where d.day = t.day), 0) as postings
        from %1$I.statement_days t
        join deltas d on d.account_id = t.account_id and d.day <= t.day
       group by t.account_id, t.day
    ),
    moved as (
      update %1$I.statement_days t
         set money_in_paise = t.money_in_paise + s.money_in,
             money_out_paise = t.money_out_paise + s.money_out,
             closing_balance_paise = t.closing_balance_paise + s.net,
             postings_count = t.postings_count + s.postings
        from shifts s
       where t.account_id = s.account_id and t.day = s.day
    ),
    fresh as (
      select d.* from deltas d
       where not exists (select 1 from %1$I.statement_days t where t.account_id = d.account_id and t.day = d.day)
    )
    -- New days (see the header for the closing balance).
    insert into %1$I.statement_days (account_id, day, money_in_paise, money_out_paise, closing_balance_paise, postings_count)
    select f.account_id, f.day, f.money_in, f.money_out,
           coalesce(prior.closing_balance_paise, 0)
             + (select sum(d.net) from deltas d where d.account_id = f.account_id and d.day <= f.day),
           f.postings
      from fresh f
      left join lateral (
        select t.closing_balance_paise from %1$I.statement_days t
         where t.account_id = f.account_id and t.day < f.day
         order by t.day desc limit 1
      ) prior on true
  $q$, p_schema) using p_from_tx, p_from_position, p_to_tx, p_to_position;
end
$fn$;
`.execute(db);
}
