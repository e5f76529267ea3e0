/**
 * Where the machine goes while B1 runs with the projection worker live (issue 40: the profile
 * behind the live ratio). Two views of the same run:
 * - CPU by process group (cpu-profile.ts: the Postgres backends by application name - the
 *   bench's ledger pool, the worker's projector connections - the worker's Node process and
 *   this one), between the load's start and end;
 * - time per transfer in each SQL function (`pg_stat_user_functions`, `track_functions = 'all'`
 *   set for the worker's sessions only, so the matrix runs are not timed): the projector's
 *   batches and the rule of each projection inside them. Wall time, so it includes waiting
 *   for the CPU; read after the worker has stopped (a backend's counts reach the statistics
 *   when it exits), so it also holds the short catch-up after the load.
 */
import { sql, type Kysely } from 'kysely';
import { cpuBreakdown, snapshotCpu, type CpuBreakdown, type CpuSnapshot } from './cpu-profile.ts';

export interface LiveProfile {
  transfers: number;
  /** CPU seconds by process group during the load. */
  cpu: CpuBreakdown | undefined;
  /** Microseconds per transfer inside each SQL function called during the run, largest total first. */
  functions: { name: string; calls: number; totalMicrosPerTransfer: number; selfMicrosPerTransfer: number }[];
}

const FUNCTIONS_SHOWN = 12;

type FunctionTimes = Map<string, { calls: number; total: number; self: number }>;

/** Before the worker starts: its sessions (and only new ones) time their function calls. */
export async function timeWorkerFunctions(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`alter database ${await databaseName(db)} set track_functions = 'all'`).execute(db);
}

export async function stopTimingFunctions(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`alter database ${await databaseName(db)} reset track_functions`).execute(db);
}

export interface ProfileWindow {
  /** At the load's end: the CPU each process group used since the window opened. */
  endLoad(): Promise<void>;
  /** After the worker has stopped: the whole profile, per transfer. */
  finish(transfers: number): Promise<LiveProfile>;
}

/** Opens the window at the load's start; `processes` names Node processes besides this one (the worker). */
export async function openProfileWindow(
  db: Kysely<unknown>,
  databaseUrl: string,
  processes: Record<string, number | undefined>,
): Promise<ProfileWindow> {
  const functionsBefore = await functionTimes(db);
  const cpuBefore: CpuSnapshot = await snapshotCpu(databaseUrl, processes);
  let cpu: CpuBreakdown | undefined;
  return {
    endLoad: async () => {
      cpu = cpuBreakdown(cpuBefore, await snapshotCpu(databaseUrl, processes), processes);
    },
    finish: async (transfers) => ({
      transfers,
      cpu,
      functions: functionDeltas(functionsBefore, await functionTimes(db), transfers),
    }),
  };
}

function functionDeltas(before: FunctionTimes, after: FunctionTimes, transfers: number): LiveProfile['functions'] {
  return [...after]
    .map(([name, now]) => {
      const then = before.get(name) ?? { calls: 0, total: 0, self: 0 };
      return {
        name,
        calls: now.calls - then.calls,
        totalMicrosPerTransfer: Math.round(((now.total - then.total) * 1000) / transfers),
        selfMicrosPerTransfer: Math.round(((now.self - then.self) * 1000) / transfers),
      };
    })
    .filter((row) => row.calls > 0)
    .sort((a, b) => b.totalMicrosPerTransfer - a.totalMicrosPerTransfer)
    .slice(0, FUNCTIONS_SHOWN);
}

async function databaseName(db: Kysely<unknown>): Promise<string> {
  const { rows } = await sql<{ name: string }>`select quote_ident(current_database()) as name`.execute(db);
  return rows[0]!.name;
}

async function functionTimes(db: Kysely<unknown>): Promise<FunctionTimes> {
  const { rows } = await sql<{ name: string; calls: string; total: number; self: number }>`
    select schemaname || '.' || funcname as name, calls::text as calls, total_time as total, self_time as self
      from pg_stat_user_functions`.execute(db);
  return new Map(rows.map((row) => [row.name, { calls: Number(row.calls), total: row.total, self: row.self }]));
}
