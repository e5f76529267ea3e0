/**
 * Test helpers for the read model: the read tables as plain data (for row-for-row
 * comparison), the checkpoints, and draining until the projections reach a state. Used by
 * the projection, CLI and platform tests.
 */
import { sql, type Kysely } from 'kysely';
import { drainAll, PROJECTIONS } from '../projections/index.ts';
import { withClient } from '../platform/database.ts';
import { eventCount } from './database.ts';
import { waitUntil } from './wait.ts';

const ORDER: Record<string, string> = {
  directory: 'account_id',
  balances: 'account_id',
  statement_lines: 'account_id, position',
  history: 'account_id, stream_id, position',
  history_counts: 'account_id, type',
  history_keying: 'account_id',
  event_actors: 'actor_id, position',
  money_requests: 'request_id',
  statement_days: 'account_id, day',
};

/** Every read table's rows, in key order, as JSON text (bigints and dates included). */
export async function dumpReadTables(db: Kysely<unknown>): Promise<Record<string, string[]>> {
  const dump: Record<string, string[]> = {};
  for (const projection of PROJECTIONS) {
    for (const table of projection.tables) {
      const { rows } = await sql<{
        row: string;
      }>`select to_jsonb(t)::text as row from ${sql.id('read', table)} t order by ${sql.raw(ORDER[table] ?? '1')}`.execute(
        db,
      );
      dump[table] = rows.map((r) => r.row);
    }
  }
  return dump;
}

export async function checkpointsOf(
  db: Kysely<unknown>,
): Promise<Record<string, { checkpoint: string; eventsApplied: bigint }>> {
  const { rows } = await sql<{ projection: string; checkpoint: string; events_applied: bigint }>`
    select projection, tx_id::text || '.' || position as checkpoint, events_applied from read.checkpoints`.execute(db);
  return Object.fromEntries(
    rows.map((row) => [row.projection, { checkpoint: row.checkpoint, eventsApplied: row.events_applied }]),
  );
}

/**
 * Drains until `done` holds. The snapshot xmin is cluster-wide: a transaction open in any
 * database of the server (another test file's, in a parallel run) holds projections back for
 * a while, so a test waits for the state it expects instead of draining once.
 */
export async function drainUntil(db: Kysely<unknown>, done: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  await waitUntil(
    'the projections to reach the expected state',
    async () => {
      await drainAll(db);
      return done();
    },
    {
      timeoutMs,
      intervalMs: 20,
      detail: async () => `checkpoints: ${JSON.stringify(await checkpointsOf(db), jsonBigint)}`,
    },
  );
}

const jsonBigint = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);

export async function allCaughtUp(db: Kysely<unknown>): Promise<boolean> {
  const total = BigInt(await eventCount(db));
  const checkpoints = await checkpointsOf(db);
  return Object.values(checkpoints).every((checkpoint) => checkpoint.eventsApplied === total);
}

/**
 * History's rows are keyed for search after this many rows an account in this test's database
 * (the product's bound is 2,000: `read.history_keys_after_rows()`, a constant the planner folds),
 * so a small history can take, or not take, the search index's way. Set as the owner, before
 * anything is projected: rows already projected keep what the bound said then.
 */
export async function keyHistoryAfterRows(ownerUrl: string, rows: number): Promise<void> {
  await withClient(ownerUrl, (client) =>
    client.query(`create or replace function read.history_keys_after_rows() returns integer
                  language sql immutable parallel safe return ${Math.trunc(rows)}`),
  );
}
