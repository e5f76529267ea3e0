/**
 * A leaner write per transfer (issue: payments at the database's speed). What one transfer
 * wrote before, and what changed (ARCHITECTURE.md, "What a transfer writes"):
 * - `postings_by_account (account_id, position)` goes: every query that filters postings by
 *   account is served by the unique `one_posting_per_account_seq (account_id, account_seq)`
 *   the ledger needs anyway (two index entries fewer per transfer).
 * - the two foreign keys of `ledger.postings` go: each was a per-row trigger that looked the
 *   referenced row up and locked it FOR KEY SHARE (four lookups and four tuple locks per
 *   transfer; on a funding account's single row, every concurrent deposit's lock became a
 *   multixact). The postings' statement trigger now checks, once per insert statement, that
 *   every line names an existing event and account; neither can disappear afterwards
 *   (events are append-only, and accounts now are too: no row is ever deleted), which is what
 *   the lock was for.
 * - `events_by_time` becomes a BRIN index: `recorded_at` grows with `position`, so block
 *   ranges serve the explorer's time filter, and an insert costs nothing until a range fills.
 * - `ledger.accounts` keeps free room on its pages (fillfactor 50), so a head update stays a
 *   HOT update (no index entry) on the same page.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
drop index ledger.postings_by_account;

do $$
declare
  v_name text;
begin
  for v_name in select conname from pg_constraint where conrelid = 'ledger.postings'::regclass and contype = 'f' loop
    execute format('alter table ledger.postings drop constraint %I', v_name);
  end loop;
end $$;

-- Every statement's lines: each names an event and an account that exist, and each event's
-- lines sum to zero (money is neither created nor destroyed).
create or replace function ledger.assert_postings_balanced() returns trigger
language plpgsql security definer set search_path = pg_catalog, pg_temp as $fn$
declare
  v_position bigint;
  v_total numeric;
  v_account text;
begin
  -- Scalar subqueries, one index probe per line: as NOT EXISTS the planner may hash the
  -- whole log (a sequential scan of every event per statement).
  select i.position into v_position from inserted i
   where (select e.position from ledger.events e where e.position = i.position limit 1) is null limit 1;
  if found then
    raise exception 'postings name event % that does not exist', v_position using errcode = 'WL012';
  end if;
  select i.account_id into v_account from inserted i
   where (select a.id from ledger.accounts a where a.id = i.account_id limit 1) is null limit 1;
  if found then
    raise exception 'postings name account % that does not exist', v_account using errcode = 'WL012';
  end if;
  select position, sum(amount) into v_position, v_total
    from inserted group by position having sum(amount) <> 0 limit 1;
  if found then
    raise exception 'postings of event % sum to % paise, not zero', v_position, v_total
      using errcode = 'WL010';
  end if;
  return null;
end
$fn$;
revoke execute on function ledger.assert_postings_balanced() from public;

-- An account, once opened, stays: postings refer to it for ever.
create function ledger.reject_account_removal() returns trigger
language plpgsql security definer set search_path = pg_catalog, pg_temp as $fn$
begin
  raise exception 'ledger.accounts rows are never removed (% is not allowed)', tg_op using errcode = 'WL011';
end
$fn$;
revoke execute on function ledger.reject_account_removal() from public;
create trigger accounts_never_deleted before delete on ledger.accounts
  for each row execute function ledger.reject_account_removal();
create trigger accounts_no_truncate before truncate on ledger.accounts
  for each statement execute function ledger.reject_account_removal();

drop index ledger.events_by_time;
create index events_by_time on ledger.events using brin (recorded_at);

alter table ledger.accounts set (fillfactor = 50);
`.execute(db);
}
