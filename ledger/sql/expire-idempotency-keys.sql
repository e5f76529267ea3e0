-- ledger.expire_idempotency_keys: idempotency keys are kept for a retention period
-- (ledger/idempotency-retention.ts) and then deleted by a daily job, one bounded batch per
-- call: short transactions, since a long delete would hold the projectors' xmin gate. It
-- refuses a retention under a day: a retry must always find its key. The BRIN index
-- idempotency_keys_by_time finds the old rows. Runs as its owner (the runtime may not delete).
create or replace function ledger.expire_idempotency_keys(p_older_than interval, p_limit integer) returns integer
language plpgsql security definer set search_path = pg_catalog, pg_temp as $fn$
declare
  v_deleted integer;
begin
  if p_older_than is null or p_older_than < interval '1 day' then
    raise exception 'idempotency keys are kept at least a day (asked for %)', p_older_than using errcode = '22023';
  end if;
  if p_limit is null or p_limit not between 1 and 100000 then
    raise exception 'expire between 1 and 100000 keys a call (asked for %)', p_limit using errcode = '22023';
  end if;
  delete from ledger.idempotency_keys k
   where k.ctid = any (array(
     select o.ctid from ledger.idempotency_keys o
      where o.recorded_at < now() - p_older_than
      limit p_limit));
  get diagnostics v_deleted = row_count;
  return v_deleted;
end
$fn$;
revoke execute on function ledger.expire_idempotency_keys(interval, integer) from public;
