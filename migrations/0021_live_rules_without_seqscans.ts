/**
 * The live projector's rules plan without sequential scans (`enable_seqscan = off` on each
 * `projector.apply_<name>__live`).
 *
 * A rule is static PL/pgSQL (0019), so each statement's plan is made once per session and
 * kept until an ANALYZE of one of its tables invalidates it. A plan made while `ledger.postings`
 * was a page or two (a new deployment, the first batches) reads a posting by a sequential scan
 * of the table - right for one page - and keeps doing so, per event, as the table grows, for as
 * long as nothing re-analyzes it. Found by bench B2 run after B1 on the same server: the
 * autovacuum workers were busy with B1's tables for minutes, B2's postings was analyzed once
 * while tiny, and the accounts rule took 15.6 ms a batch instead of 1.9 (perf: the time in
 * sequential scans with an int8 equality filter). A live batch is a small range looked up by
 * keys, never a scan, so its plans are made with sequential scans priced out (a table with no
 * usable index still gets one). Replay's `__rebuild` rules read large chunks and keep the
 * planner's choice.
 */
import { sql, type Kysely } from 'kysely';

const PROJECTIONS = ['accounts', 'history', 'money_requests', 'statements'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const name of PROJECTIONS) {
    await sql
      .raw(`alter function projector.apply_${name}__live(xid8, bigint, xid8, bigint) set enable_seqscan = off`)
      .execute(db);
  }
}
