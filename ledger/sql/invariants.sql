-- The ledger's own defences, the trigger functions behind the triggers on its tables (the
-- triggers themselves are part of the tables, in the baseline migration). They run with
-- whoever fired them and cannot be called directly.

-- History is immutable: corrections are new events, never edits. Fired before any update,
-- delete or truncate of ledger.events and ledger.postings.
create or replace function ledger.reject_mutation() returns trigger language plpgsql as $fn$
begin
  raise exception 'ledger.% is append-only: % is not allowed', tg_table_name, tg_op
    using errcode = 'WL011';
end
$fn$;

-- Fired once per insert statement on ledger.postings, over the statement's rows (an event's
-- lines are inserted together): every line names an event and an account that exist, and each
-- event's lines sum to zero (money is neither created nor destroyed). The postings have no
-- foreign keys: each was a per-row lookup that locked the referenced row FOR KEY SHARE (on a
-- funding account's single row, every concurrent deposit's lock became a multixact). Neither
-- an event nor an account can disappear afterwards (both tables are append-only), which is
-- what the lock was for.
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

-- An account, once opened, stays: postings refer to it for ever. Fired before any delete or
-- truncate of ledger.accounts.
create or replace function ledger.reject_account_removal() returns trigger
language plpgsql security definer set search_path = pg_catalog, pg_temp as $fn$
begin
  raise exception 'ledger.accounts rows are never removed (% is not allowed)', tg_op using errcode = 'WL011';
end
$fn$;
revoke execute on function ledger.reject_account_removal() from public;
