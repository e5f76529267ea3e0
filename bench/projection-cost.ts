/**
 * What each projection costs per event, measured alone: on a ledger whose projections are
 * behind (B1's matrix runs with no worker), each projection in turn applies the next `events`
 * events in live batches of `batchSize` (`runProjectionBatch`, as the worker does) on one
 * connection, with nothing else running. Per event: the Postgres backend's CPU time (user +
 * system, from /proc/<pid>/stat, so the round trips' Node side is not counted), the wall time,
 * and the WAL written (the insert position before and after).
 */
import { readFileSync } from 'node:fs';
import { sql, type Kysely } from 'kysely';
import { createDatabase } from '../platform/database.ts';
import { PROJECTION_NAMES, runProjectionBatch, type ProjectionName } from '../projections/index.ts';

export interface ProjectionCostRow {
  projection: ProjectionName;
  events: number;
  batchSize: number;
  cpuMicrosPerEvent: number;
  wallMicrosPerEvent: number;
  walBytesPerEvent: number;
}

export interface ProjectionCostOptions {
  /** Events each projection applies (fewer if fewer are waiting). */
  events: number;
  batchSize: number;
}

/** Linux's USER_HZ: /proc reports CPU time in these ticks. */
const CLOCK_TICKS_PER_SECOND = 100;

export async function measureProjectionCosts(
  url: string,
  options: ProjectionCostOptions,
): Promise<ProjectionCostRow[]> {
  const db = createDatabase<unknown>({
    connectionString: url,
    maxConnections: 1,
    applicationName: 'bench-projection-cost',
  });
  try {
    const rows: ProjectionCostRow[] = [];
    for (const projection of PROJECTION_NAMES) rows.push(await measureOne(db, projection, options));
    return rows;
  } finally {
    await db.destroy();
  }
}

async function measureOne(
  db: Kysely<unknown>,
  projection: ProjectionName,
  options: ProjectionCostOptions,
): Promise<ProjectionCostRow> {
  const pid = await backendPid(db);
  const walBefore = await walInsertPosition(db);
  const cpuBefore = backendCpuSeconds(pid);
  const started = performance.now();
  let events = 0;
  while (events < options.events) {
    const outcome = await runProjectionBatch(db, projection, { batchSize: options.batchSize });
    if (outcome.status === 'busy') throw new Error(`${projection}: another projector holds its checkpoint`);
    events += outcome.applied;
    if (outcome.applied === 0) break;
  }
  const wallSeconds = (performance.now() - started) / 1000;
  const cpuSeconds = backendCpuSeconds(pid) - cpuBefore;
  const walBytes = (await walInsertPosition(db)) - walBefore;
  const perEvent = (value: number): number => (events === 0 ? Number.NaN : value / events);
  return {
    projection,
    events,
    batchSize: options.batchSize,
    cpuMicrosPerEvent: perEvent(cpuSeconds * 1e6),
    wallMicrosPerEvent: perEvent(wallSeconds * 1e6),
    walBytesPerEvent: perEvent(Number(walBytes)),
  };
}

async function backendPid(db: Kysely<unknown>): Promise<number> {
  const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
  return rows[0]?.pid ?? 0;
}

async function walInsertPosition(db: Kysely<unknown>): Promise<bigint> {
  const { rows } = await sql<{
    bytes: string;
  }>`select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::bigint::text as bytes`.execute(db);
  return BigInt(rows[0]?.bytes ?? '0');
}

/** utime + stime of a process (fields 14 and 15 of /proc/<pid>/stat, after the command's parentheses). */
function backendCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

export function printProjectionCosts(rows: readonly ProjectionCostRow[], log: (line: string) => void): void {
  for (const row of rows)
    log(
      `B1 projection cost ${row.projection.padEnd(14)} ${row.events} events in batches of ${row.batchSize}: ` +
        `${row.cpuMicrosPerEvent.toFixed(1)} us CPU/event (wall ${row.wallMicrosPerEvent.toFixed(1)} us), ${row.walBytesPerEvent.toFixed(0)} B WAL/event`,
    );
}
