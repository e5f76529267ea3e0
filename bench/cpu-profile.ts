/**
 * Where a machine's CPU went during a benchmark run: the whole machine (/proc/stat), the
 * API and worker processes, this bench process (the load's client), and the Postgres server's
 * processes grouped by who they serve (`application_name` of client backends, `backend_type`
 * of the server's own). Read from /proc before and after; a Postgres process that started
 * or ended in between counts from its start or up to its last reading.
 *
 * Linux only (the bench machines); elsewhere every figure is 0.
 */
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

export interface CpuSnapshot {
  at: number;
  /** Busy and total jiffies of the whole machine. */
  machineBusy: number;
  machineTotal: number;
  /** CPU jiffies (user + system) by pid, of every process this snapshot looked at. */
  byPid: Map<number, number>;
  /** Postgres processes: pid -> the group they belong to. */
  postgres: Map<number, string>;
}

export interface CpuBreakdown {
  wallSeconds: number;
  cores: number;
  /** Share of the machine's capacity that was busy. */
  machineBusyShare: number;
  /** CPU seconds by group, largest first; "other" is the machine's busy time nobody here claims. */
  groups: Array<{ group: string; cpuSeconds: number }>;
}

const TICKS_PER_SECOND = 100;

/** The group of this bench process: autocannon in the closed-loop runs, undici's pool in the open loop. */
export const BENCH_PROCESS_GROUP = 'bench process (load client)';

function readTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

function readMachine(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const total = values.slice(0, 8).reduce((sum, value) => sum + value, 0);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  return { busy: total - idle, total };
}

/** Every process whose command is the Postgres server (`postgres`) on this machine. */
function postgresPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

async function postgresGroups(databaseUrl: string): Promise<Map<number, string>> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'bench-cpu-profile' });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number; group: string }>(
      `select pid, case when backend_type = 'client backend'
                        then 'postgres: ' || coalesce(nullif(application_name, ''), '(unnamed)')
                        else 'postgres: ' || backend_type end as "group"
         from pg_stat_activity`,
    );
    return new Map(rows.map((row) => [row.pid, row.group]));
  } finally {
    await client.end();
  }
}

export async function snapshotCpu(
  databaseUrl: string,
  processes: Record<string, number | undefined>,
): Promise<CpuSnapshot> {
  const postgres = await postgresGroups(databaseUrl);
  for (const pid of postgresPids()) if (!postgres.has(pid)) postgres.set(pid, 'postgres: other');
  const byPid = new Map<number, number>();
  for (const pid of [...Object.values(processes), process.pid, ...postgres.keys()]) {
    if (pid === undefined) continue;
    const ticks = readTicks(pid);
    if (ticks !== undefined) byPid.set(pid, ticks);
  }
  const machine = readMachine();
  return { at: performance.now(), machineBusy: machine.busy, machineTotal: machine.total, byPid, postgres };
}

export function cpuBreakdown(
  before: CpuSnapshot,
  after: CpuSnapshot,
  processes: Record<string, number | undefined>,
): CpuBreakdown {
  const wallSeconds = (after.at - before.at) / 1000;
  const totals = new Map<string, number>();
  const add = (group: string, pid: number): void => {
    const ticks = (after.byPid.get(pid) ?? 0) - (before.byPid.get(pid) ?? 0);
    if (ticks > 0) totals.set(group, (totals.get(group) ?? 0) + ticks / TICKS_PER_SECOND);
  };
  for (const [name, pid] of Object.entries(processes)) if (pid !== undefined) add(name, pid);
  add(BENCH_PROCESS_GROUP, process.pid);
  const postgres = new Map([...before.postgres, ...after.postgres]);
  for (const [pid, group] of postgres) add(group, pid);
  const machineSeconds = (after.machineBusy - before.machineBusy) / TICKS_PER_SECOND;
  const claimed = [...totals.values()].reduce((sum, value) => sum + value, 0);
  if (machineSeconds > claimed) totals.set('other (rest of the machine)', machineSeconds - claimed);
  const machineTotal = after.machineTotal - before.machineTotal;
  const cores = machineTotal / TICKS_PER_SECOND / Math.max(wallSeconds, 0.001);
  return {
    wallSeconds,
    cores: Math.round(cores),
    machineBusyShare: machineTotal > 0 ? (after.machineBusy - before.machineBusy) / machineTotal : 0,
    groups: [...totals.entries()]
      .map(([group, cpuSeconds]) => ({ group, cpuSeconds }))
      .sort((a, b) => b.cpuSeconds - a.cpuSeconds),
  };
}

/** One line per group: CPU seconds, share of the busy time, and ms of CPU per `unit` done. */
export function describeBreakdown(breakdown: CpuBreakdown, units: number, unit: string): string[] {
  const busy = breakdown.groups.reduce((sum, group) => sum + group.cpuSeconds, 0);
  return [
    `${breakdown.wallSeconds.toFixed(0)} s on ${breakdown.cores} cores, ${(breakdown.machineBusyShare * 100).toFixed(0)}% busy; ` +
      `${((busy * 1000) / Math.max(units, 1)).toFixed(2)} ms of CPU per ${unit} in all`,
    ...breakdown.groups.map(
      (group) =>
        `  ${group.group.padEnd(44)} ${group.cpuSeconds.toFixed(1).padStart(6)} s  ${(
          (group.cpuSeconds / Math.max(busy, 0.001)) *
          100
        )
          .toFixed(0)
          .padStart(3)}%  ${((group.cpuSeconds * 1000) / Math.max(units, 1)).toFixed(3)} ms/${unit}`,
    ),
  ];
}
