/**
 * Growth (issue: the read side at the database's speed; ARCHITECTURE.md, "The log at 100x"):
 * - Idempotency keys are kept for a retention period (7 days, ledger/idempotency-retention.ts)
 *   and then deleted by a daily job, so the table holds about a week of keyed commands
 *   instead of every one ever made. `ledger.expire_idempotency_keys` deletes one bounded
 *   batch per call (short transactions: a long delete would hold the projectors' xmin gate)
 *   and refuses a retention under a day: a retry must always find its key. A BRIN index on
 *   `recorded_at` (which grows with insertion order) finds the old rows for nearly nothing
 *   per insert.
 * - The history search's trigram indexes keep PostgreSQL's default pending list (4 MB),
 *   measured against the alternatives on a live projector's batches (20,000 events in
 *   batches of 500 into a history of 100,000 rows): 512 kB took twice as long in all
 *   (4.2-4.7 s against 2.1-2.4 s) with no smaller worst batch; fastupdate off five times as
 *   long (10.7-13 s); 16 MB a little less in all (1.7-2.2 s) but twice the worst batch and a
 *   longer list for every search to read. So nothing is set here.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
create index idempotency_keys_by_time on ledger.idempotency_keys using brin (recorded_at);

create function ledger.expire_idempotency_keys(p_older_than interval, p_limit integer) returns integer
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
`.execute(db);
}
