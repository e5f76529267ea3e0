/**
 * Test helpers: the read tables as plain data (for row-for-row comparison), and the
 * checkpoints. Used by the projection tests only.
 */
import { sql, type Kysely } from 'kysely';
import { PROJECTIONS } from '../registry.ts';

const ORDER: Record<string, string> = {
  directory: 'account_id',
  balances: 'account_id',
  statements: 'account_id, position',
  history: 'account_id, stream_id',
  money_requests: 'request_id',
};

/** Every read table's rows, in key order, as JSON text (bigints and dates included). */
export async function dumpReadTables(db: Kysely<unknown>): Promise<Record<string, string[]>> {
  const dump: Record<string, string[]> = {};
  for (const projection of PROJECTIONS) {
    for (const table of projection.tables) {
      const { rows } = await sql<{ row: string }>`select to_jsonb(t)::text as row from ${sql.id('read', table)} t order by ${sql.raw(ORDER[table] ?? '1')}`.execute(db);
      dump[table] = rows.map((r) => r.row);
    }
  }
  return dump;
}

export async function checkpointsOf(db: Kysely<unknown>): Promise<Record<string, { checkpoint: string; eventsApplied: bigint }>> {
  const { rows } = await sql<{ projection: string; checkpoint: string; events_applied: bigint }>`
    select projection, tx_id::text || '.' || position as checkpoint, events_applied from read.checkpoints`.execute(db);
  return Object.fromEntries(rows.map((row) => [row.projection, { checkpoint: row.checkpoint, eventsApplied: row.events_applied }]));
}

export async function eventCount(db: Kysely<unknown>): Promise<bigint> {
  const { rows } = await sql<{ n: bigint }>`select count(*) as n from ledger.events`.execute(db);
  return rows[0]?.n ?? 0n;
}
