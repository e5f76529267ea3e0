/**
 * Durability gauges ("Never lose the ledger", item 6), read at scrape time from the app's own
 * database connection, so they work on any topology (one Postgres, or Patroni behind HAProxy,
 * where the connection reaches the primary):
 *
 * - `wallet_database_in_recovery`: 1 on a standby, 0 on a primary;
 * - `wallet_database_timeline`: the WAL timeline the server writes (on a primary, from the
 *   current WAL file's name, which any role may read); it goes up by one on every failover or
 *   switchover. On a standby it is served only when the role may run pg_control_checkpoint();
 * - `wallet_replication_lag_seconds{standby}` (pg_stat_replication.replay_lag, 0 when the
 *   standby has caught up) and `wallet_synchronous_standbys` (standbys in sync or quorum state);
 * - `wallet_synchronous_commit_required`: 1 when synchronous_standby_names is set, i.e. a
 *   commit waits for a synchronous standby (Patroni's strict synchronous mode keeps it set when
 *   no standby is left);
 * - `wallet_wal_archive_last_success_age_seconds` (pg_stat_archiver.last_archived_time; NaN when
 *   archive_mode is off or nothing was archived yet) and `wallet_wal_archive_failed_total`.
 *
 * pg_stat_replication shows a standby's state and lag only to superusers and members of
 * pg_read_all_stats (pg_monitor includes it); the runtime role is neither unless the cluster's
 * superuser grants it (docs/operations.md, What to watch). Without it the two replication
 * gauges are NaN / absent rather than a false "no standby".
 */
import { sql, type Kysely } from 'kysely';
import { Counter, Gauge } from 'prom-client';
import type { MetricsRegistry } from '../platform/metrics.ts';

/** Gauges are read together, one round of queries per scrape at most this often. */
const SHARED_READ_MS = 1_000;

export interface DurabilityState {
  inRecovery: boolean;
  /** The WAL timeline, or null when this role cannot read it (a standby without the privilege). */
  timeline: number | null;
  /** Whether this role sees the standbys' state and lag (superuser or pg_read_all_stats). */
  seesReplication: boolean;
  standbys: { name: string; lagSeconds: number; syncState: string }[];
  synchronousCommitRequired: boolean;
  /** Seconds since the last archived WAL segment; null when archiving is off or none yet. */
  archiveAgeSeconds: number | null;
  archiveFailed: number;
}

export async function readDurabilityState(db: Kysely<unknown>): Promise<DurabilityState> {
  const {
    rows: [server],
  } = await sql<{
    in_recovery: boolean;
    sees_replication: boolean;
    reads_checkpoint: boolean;
    sync_names: string;
    archive_mode: string;
    archive_age: number | null;
    archive_failed: string;
  }>`
    select pg_is_in_recovery() as in_recovery,
           pg_has_role('pg_read_all_stats', 'usage') as sees_replication,
           has_function_privilege('pg_control_checkpoint()', 'execute') as reads_checkpoint,
           current_setting('synchronous_standby_names') as sync_names,
           current_setting('archive_mode') as archive_mode,
           extract(epoch from now() - a.last_archived_time)::float8 as archive_age,
           a.failed_count::text as archive_failed
      from pg_stat_archiver a`.execute(db);
  if (!server) throw new Error('pg_stat_archiver returned no row');
  // Separate statements: a function the role may not execute fails the whole statement that names it.
  let timeline: number | null = null;
  if (!server.in_recovery) {
    const { rows } = await sql<{ timeline: number }>`
      select ('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::int as timeline`.execute(db);
    timeline = rows[0]?.timeline ?? null;
  } else if (server.reads_checkpoint) {
    const { rows } = await sql<{
      timeline: number;
    }>`select timeline_id as timeline from pg_control_checkpoint()`.execute(db);
    timeline = rows[0]?.timeline ?? null;
  }
  const { rows: standbys } = await sql<{ name: string; lag: number | null; sync_state: string | null }>`
    select coalesce(nullif(application_name, ''), client_addr::text, pid::text) as name,
           extract(epoch from replay_lag)::float8 as lag, sync_state
      from pg_stat_replication`.execute(db);
  return {
    inRecovery: server.in_recovery,
    timeline,
    seesReplication: server.sees_replication,
    standbys: server.sees_replication
      ? standbys.map((row) => ({ name: row.name, lagSeconds: row.lag ?? 0, syncState: row.sync_state ?? 'unknown' }))
      : [],
    synchronousCommitRequired: server.sync_names.trim() !== '',
    archiveAgeSeconds: server.archive_mode === 'off' ? null : server.archive_age,
    archiveFailed: Number(server.archive_failed),
  };
}

/**
 * Registers the durability gauges on `registry`. A failed read keeps the unlabelled gauges' last
 * values (NaN before the first read) and leaves the lag series empty for that scrape.
 */
export function registerDurabilityGauges(registry: MetricsRegistry, db: Kysely<unknown>): void {
  let last: { at: number; value: Promise<DurabilityState | undefined> } | undefined;
  const read = () => {
    if (!last || performance.now() - last.at > SHARED_READ_MS) {
      last = { at: performance.now(), value: readDurabilityState(db).catch(() => undefined) };
    }
    return last.value;
  };
  const gauge = (name: string, help: string, value: (state: DurabilityState) => number | null) => {
    const created = new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const state = await read();
        // A failed read keeps the last value: a blip must not look like a timeline change.
        if (state) this.set(value(state) ?? NaN);
      },
    });
    created.set(NaN);
  };
  gauge('wallet_database_in_recovery', '1 when the database this process uses is a standby (in recovery).', (s) =>
    s.inRecovery ? 1 : 0,
  );
  gauge(
    'wallet_database_timeline',
    'The WAL timeline of the database this process uses: it goes up on every failover or switchover.',
    (s) => s.timeline,
  );
  gauge(
    'wallet_synchronous_standbys',
    'Standbys in sync or quorum state on the primary (NaN: this role cannot see their state).',
    (s) =>
      s.seesReplication ? s.standbys.filter((x) => x.syncState === 'sync' || x.syncState === 'quorum').length : null,
  );
  gauge(
    'wallet_synchronous_commit_required',
    '1 when synchronous_standby_names is set: commits wait for a synchronous standby.',
    (s) => (s.synchronousCommitRequired ? 1 : 0),
  );
  gauge(
    'wallet_wal_archive_last_success_age_seconds',
    'Seconds since the last WAL segment was archived (NaN: archive_mode off, or nothing archived yet).',
    (s) => s.archiveAgeSeconds,
  );
  new Gauge({
    name: 'wallet_replication_lag_seconds',
    help: "A standby's replay lag as the primary sees it (pg_stat_replication.replay_lag; 0 when caught up).",
    labelNames: ['standby'],
    registers: [registry],
    async collect() {
      const state = await read();
      this.reset();
      for (const standby of state?.standbys ?? []) this.set({ standby: standby.name }, standby.lagSeconds);
    },
  });
  new Counter({
    name: 'wallet_wal_archive_failed_total',
    help: 'Failed attempts to archive a WAL segment since the statistics were reset (pg_stat_archiver.failed_count).',
    registers: [registry],
    async collect() {
      const state = await read();
      if (!state) return;
      this.reset();
      if (state.archiveFailed > 0) this.inc(state.archiveFailed);
    },
  });
}
