/**
 * Rate-limit counters shared by every API process (api/auth/rate-limit-store.ts): one row per
 * (limit scope, client) and window, incremented by one upsert per counted request.
 *
 * Own schema `ratelimit`: the runtime role gets DML on it by schema policy, nothing else.
 * UNLOGGED: a counter is worth nothing after a crash, and every counted request writes a row;
 * an unlogged table writes no WAL for it, so a count costs no WAL flush at commit, nothing is
 * shipped to replicas, and a crash only empties the table (every client starts a fresh
 * window). Fillfactor 50 leaves room on each page so that a count (which changes `hits`, not
 * an indexed column) is a HOT update; `reset_at` is indexed so expired rows are swept by range.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
create schema ratelimit;

create unlogged table ratelimit.counters (
  key text primary key check (length(key) <= 512),
  hits bigint not null check (hits > 0),
  reset_at timestamptz not null
) with (fillfactor = 50);

create index counters_reset_at on ratelimit.counters (reset_at);
`.execute(db);
}
