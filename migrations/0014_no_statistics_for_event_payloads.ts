/**
 * The log's payloads (`ledger.events.data` and `metadata`, jsonb) get no planner statistics: a
 * statistics target of 0, so ANALYZE leaves them out. No plan filters, joins or sorts on a
 * whole payload (the projections, the audit and the API read events by position, transaction
 * and stream; a field of a payload has no statistics of its own anyway), and sampling and
 * sorting them was most of each ANALYZE of the log: 211 ms against 82 ms without them, on a
 * 198k-event log (bench/RESULTS.md, 2026-11-29 18:46 entry). Autovacuum analyzes the log at
 * every tenth of growth on the cores that serve payments, and on the bench's two cores its
 * passes were where the open-loop payment p99 formed. Statistics gathered before stay in the
 * catalog, unused, until the table is dropped: removing them needs a superuser, which the
 * owner is not.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
alter table ledger.events alter column data set statistics 0, alter column metadata set statistics 0;
`.execute(db);
}
