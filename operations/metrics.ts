/**
 * The operator reads as Prometheus gauges, read from the database at scrape time, so every
 * process that serves /metrics (the API and the worker) reports the same values: projection
 * lag per projection (events and seconds), the last recorded ledger verify run (its
 * differences and when it ran: `npm run ledger -- verify` and the admin's "verify now" record
 * one), and the pg-boss queues (waiting, active and failed jobs per queue).
 *
 * A read that fails (the database is away) leaves the per-projection and per-queue gauges
 * empty for that scrape rather than repeating stale values (the verify gauges keep the last
 * run they read); the process metrics are still served.
 */
import type { Kysely } from 'kysely';
import { Gauge, type Registry } from 'prom-client';
import { lastVerifyRun } from '../audit/index.ts';
import type { JobBoss } from '../platform/jobs.ts';
import { projectionStatus, type ProjectionStatus } from './projection-status.ts';

/** Gauges of one family are read together: one query per scrape, not one per gauge. */
const SHARED_READ_MS = 1_000;

function sharedRead<T>(read: () => Promise<T>): () => Promise<T | undefined> {
  let last: { at: number; value: Promise<T | undefined> } | undefined;
  return () => {
    if (!last || performance.now() - last.at > SHARED_READ_MS) {
      last = { at: performance.now(), value: read().catch(() => undefined) };
    }
    return last.value;
  };
}

/** A gauge whose values are set from `read` at each scrape, one series per row. */
function scrapedGauge<Row>(
  registry: Registry,
  definition: { name: string; help: string; labelNames?: readonly string[] },
  read: () => Promise<readonly Row[] | undefined>,
  sample: (row: Row) => { labels?: Record<string, string>; value: number },
): void {
  new Gauge({
    ...definition,
    labelNames: definition.labelNames ?? [],
    registers: [registry],
    async collect() {
      const rows = await read();
      // An unlabelled gauge cannot be left empty (prom-client reports 0): it keeps its last value.
      if (rows === undefined && (definition.labelNames ?? []).length === 0) return;
      this.reset();
      for (const row of rows ?? []) {
        const { labels, value } = sample(row);
        if (labels) this.set(labels, value);
        else this.set(value);
      }
    },
  });
}

export function registerProjectionGauges(registry: Registry, db: Kysely<unknown>): void {
  const read = sharedRead(async (): Promise<ProjectionStatus[]> => (await projectionStatus(db)).projections);
  const perProjection = (name: string, help: string, value: (p: ProjectionStatus) => number) =>
    scrapedGauge(registry, { name, help, labelNames: ['projection'] }, read, (p) => ({
      labels: { projection: p.projection },
      value: value(p),
    }));
  perProjection('wallet_projection_lag_events', 'Committed events a projection has not applied yet.', (p) =>
    Number(p.eventsBehind),
  );
  perProjection(
    'wallet_projection_lag_seconds',
    'Age of the oldest event a projection has not applied yet.',
    (p) => p.secondsBehind,
  );
  perProjection('wallet_projection_events_applied', 'Events a projection has applied since its last replay.', (p) =>
    Number(p.eventsApplied),
  );
  perProjection('wallet_projection_failing', "1 when the projection's last batch failed (see last error).", (p) =>
    p.lastError === null ? 0 : 1,
  );
}

export function registerVerifyGauges(registry: Registry, db: Kysely<unknown>): void {
  const read = sharedRead(async () => {
    const run = await lastVerifyRun(db);
    return run ? [run] : [];
  });
  scrapedGauge(
    registry,
    {
      name: 'wallet_ledger_verify_differences',
      help: 'Differences the last recorded ledger verify run found (0: clean, or no run recorded yet).',
    },
    read,
    (run) => ({ value: run.differences.length }),
  );
  scrapedGauge(
    registry,
    {
      name: 'wallet_ledger_verify_last_run_timestamp_seconds',
      help: 'When the last recorded ledger verify run ran (Unix seconds; 0: never).',
    },
    read,
    (run) => ({ value: Date.parse(run.ranAt) / 1000 }),
  );
}

interface QueueCounts {
  queue: string;
  queued: number;
  active: number;
  failed: number;
}

/**
 * pg-boss's own counts per queue (`getQueueStats`: its cached figures, refreshed by one
 * aggregate when older than its cache budget), so a scrape never scans the job table itself.
 */
export function registerJobQueueGauges(registry: Registry, boss: JobBoss, queues: readonly string[]): void {
  const read = sharedRead(() =>
    Promise.all(
      queues.map(async (queue): Promise<QueueCounts> => {
        const [stats] = await boss.getQueueStats(queue);
        return {
          queue,
          queued: stats?.queuedCount ?? 0,
          active: stats?.activeCount ?? 0,
          failed: stats?.failedCount ?? 0,
        };
      }),
    ),
  );
  const perQueue = (name: string, help: string, value: (counts: QueueCounts) => number) =>
    scrapedGauge(registry, { name, help, labelNames: ['queue'] }, read, (counts) => ({
      labels: { queue: counts.queue },
      value: value(counts),
    }));
  perQueue(
    'wallet_job_queue_depth',
    'Jobs waiting in a queue (retries waiting their delay included).',
    (c) => c.queued,
  );
  perQueue('wallet_job_queue_active', 'Jobs of a queue being worked on now.', (c) => c.active);
  perQueue(
    'wallet_job_queue_failed',
    'Jobs of a queue that failed for good (retries spent), as long as pg-boss keeps them.',
    (c) => c.failed,
  );
}
