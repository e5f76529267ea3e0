/**
 * The statement lines' time index holds only lines past an account's 2,000th
 * (`sequence > 2000`; issue 40: the read side's cost; decision 0024).
 *
 * It was a B-tree entry per posting, two per transfer, for the one read that filters lines by
 * time. An account's first 2,000 lines are found through the primary key (account, sequence)
 * and filtered there, at most 2,000 entries; only a longer statement needs the time index to
 * reach its lines of a month without reading the ones before (projections/accounts/queries.ts
 * reads the two parts apart). A line's sequence never changes, so nothing moves into the index
 * later, unlike history's `keyed` rows. The literal is STATEMENT_LINES_TIMED_AFTER.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
drop index read.statement_lines_by_time;
create index statement_lines_by_time on read.statement_lines (account_id, recorded_at) where sequence > 2000;
`.execute(db);
}
