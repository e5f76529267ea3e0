/**
 * Readiness, as the API's /api/health/ready and the worker's /health/ready answer it: the
 * database answers, its migrations are current (every migration this code ships has run), and
 * no projection is further behind than the limit (the age of the first event it has not
 * applied; READY_MAX_PROJECTION_LAG_SECONDS). Each check says what it found; a check that
 * cannot run because the database is away fails with that reason.
 */
import { sql, type Kysely } from 'kysely';
import type { ReadinessCheck, ReadinessReport } from '../platform/health-server.ts';
import { pendingMigrationsOf } from '../platform/migrate.ts';

export type { ReadinessCheck, ReadinessReport } from '../platform/health-server.ts';

export interface ReadinessOptions {
  /** A projection whose first unapplied event is older than this makes the process not ready. */
  maxProjectionLagSeconds: number;
}

export async function checkReadiness(db: Kysely<unknown>, options: ReadinessOptions): Promise<ReadinessReport> {
  const database = await checkDatabase(db);
  const checks: Record<string, ReadinessCheck> = database.ok
    ? {
        database,
        migrations: await checkMigrations(db),
        projections: await checkProjectionLag(db, options.maxProjectionLagSeconds),
      }
    : {
        database,
        migrations: { ok: false, detail: 'not checked: the database is unreachable' },
        projections: { ok: false, detail: 'not checked: the database is unreachable' },
      };
  return { ready: Object.values(checks).every((check) => check.ok), checks };
}

async function checkDatabase(db: Kysely<unknown>): Promise<ReadinessCheck> {
  try {
    await sql`select 1`.execute(db);
    return { ok: true, detail: 'reachable' };
  } catch {
    return { ok: false, detail: 'unreachable' };
  }
}

async function checkMigrations(db: Kysely<unknown>): Promise<ReadinessCheck> {
  try {
    const pending = await pendingMigrationsOf(db);
    return pending.length === 0
      ? { ok: true, detail: 'current' }
      : { ok: false, detail: `${pending.length} pending: ${pending.join(', ')}` };
  } catch {
    return { ok: false, detail: 'could not be read' };
  }
}

/**
 * The first event after each checkpoint in read order, found through the (tx_id, position)
 * index: a probe every few seconds never counts a backlog (the metrics do that).
 */
async function checkProjectionLag(db: Kysely<unknown>, maxSeconds: number): Promise<ReadinessCheck> {
  try {
    const { rows } = await sql<{ projection: string; seconds: number | null }>`
      select c.projection,
             extract(epoch from now() - (
               select e.recorded_at from ledger.events e
                where (e.tx_id, e.position) > (c.tx_id, c.position)
                order by e.tx_id, e.position limit 1))::float8 as seconds
        from read.checkpoints c order by c.projection`.execute(db);
    const behind = rows.filter((row) => (row.seconds ?? 0) > maxSeconds);
    if (behind.length === 0) return { ok: true, detail: `every projection within ${maxSeconds} s` };
    const named = behind.map((row) => `${row.projection} ${(row.seconds ?? 0).toFixed(1)} s behind`);
    return { ok: false, detail: `${named.join(', ')} (limit ${maxSeconds} s)` };
  } catch {
    return { ok: false, detail: 'could not be read' };
  }
}
