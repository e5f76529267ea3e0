/**
 * Projection status (`npm run ledger -- status`, the admin's projections page, /metrics):
 * each projection's checkpoint and lag (events behind, seconds behind), its last error, and
 * the transaction holding the snapshot xmin back when committed events are waiting behind it
 * (a long-running transaction delays every projection; nothing is lost).
 */
import { sql, type Kysely } from 'kysely';
import type { XminHolder } from '../contracts/admin.ts';
export type { XminHolder } from '../contracts/admin.ts';

export interface ProjectionStatus {
  projection: string;
  checkpoint: string;
  eventsApplied: bigint;
  eventsBehind: bigint;
  secondsBehind: number;
  updatedAt: Date;
  lastError: string | null;
}

export interface StatusReport {
  projections: ProjectionStatus[];
  /** Committed events the xmin gate is holding back right now. */
  heldBackEvents: bigint;
  /** How long the oldest of them has waited. */
  heldBackSeconds: number;
  holder: XminHolder | undefined;
}

/** Events wait a few milliseconds behind transactions in flight all the time; longer is worth naming. */
export const HELD_BACK_WARNING_SECONDS = 1;

export async function projectionStatus(db: Kysely<unknown>): Promise<StatusReport> {
  const { rows } = await sql<{
    projection: string;
    checkpoint: string;
    events_applied: bigint;
    behind: bigint;
    oldest: Date | null;
    updated_at: Date;
    last_error: string | null;
  }>`
    select c.projection, c.tx_id::text || '.' || c.position as checkpoint, c.events_applied, c.updated_at, c.last_error,
           (select count(*) from ledger.events e where (e.tx_id, e.position) > (c.tx_id, c.position)) as behind,
           (select min(e.recorded_at) from ledger.events e where (e.tx_id, e.position) > (c.tx_id, c.position)) as oldest
      from read.checkpoints c order by c.projection`.execute(db);
  const held = await sql<{ held: bigint; seconds: number | null }>`
    select count(*) as held, extract(epoch from now() - min(recorded_at))::float8 as seconds
      from ledger.events where tx_id >= pg_snapshot_xmin(pg_current_snapshot())`.execute(db);
  const heldBackEvents = held.rows[0]?.held ?? 0n;
  const heldBackSeconds = held.rows[0]?.seconds ?? 0;
  return {
    projections: rows.map((row) => ({
      projection: row.projection,
      checkpoint: row.checkpoint,
      eventsApplied: row.events_applied,
      eventsBehind: row.behind,
      secondsBehind: row.oldest ? Math.max(0, (Date.now() - row.oldest.getTime()) / 1000) : 0,
      updatedAt: row.updated_at,
      lastError: row.last_error,
    })),
    heldBackEvents,
    heldBackSeconds,
    holder:
      heldBackEvents > 0n && heldBackSeconds >= HELD_BACK_WARNING_SECONDS ? await oldestTransaction(db) : undefined,
  };
}

/** What pg_stat_activity shows in place of another role's query to a role without pg_read_all_stats. */
const HIDDEN_QUERY = '<insufficient privilege>';

/**
 * The transaction whose xid (or snapshot) is oldest: the one holding the xmin back. pid,
 * application, role and xid/xmin of every session are visible to any role; state, start and
 * query of another role's session only to superusers and pg_read_all_stats, so such a session
 * is named without them rather than left out (it may well be the holder).
 */
async function oldestTransaction(db: Kysely<unknown>): Promise<XminHolder | undefined> {
  const { rows } = await sql<{
    pid: number;
    application_name: string;
    role: string;
    visible: boolean;
    state: string;
    seconds: number | null;
    query: string;
  }>`
    select pid, application_name, coalesce(usename, '') as role, query is distinct from ${HIDDEN_QUERY} as visible,
           coalesce(state, '') as state, extract(epoch from now() - xact_start)::float8 as seconds, left(regexp_replace(query, '\s+', ' ', 'g'), 120) as query
      from pg_stat_activity
     where pid <> pg_backend_pid() and (backend_xid is not null or backend_xmin is not null)
       and (xact_start is not null or query is not distinct from ${HIDDEN_QUERY})
     order by age(coalesce(backend_xid, backend_xmin)) desc
     limit 1`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  return {
    pid: row.pid,
    applicationName: row.application_name,
    role: row.role,
    visible: row.visible,
    state: row.state,
    transactionSeconds: row.seconds,
    query: row.visible ? row.query : '',
  };
}
