/**
 * Each process's metrics registry and the series only a whole process can wire: the API
 * process's group-commit batch sizes (observed through the ledger's batch callback, so the
 * ledger knows no metrics library), and, where jobs are worked (the worker process, or
 * `npm start` with RUN_WORKERS), the pg-boss queues; the worker also serves the operator
 * gauges the API adds in buildApp (projection lag, the last verify run).
 */
import { Histogram } from 'prom-client';
import { registerJobQueueGauges, registerProjectionGauges, registerVerifyGauges } from '../operations/index.ts';
import type { JobBoss } from '../platform/jobs.ts';
import { createMetricsRegistry, type MetricsRegistry } from '../platform/metrics.ts';
import { DEFAULT_BATCHING } from '../ledger/index.ts';
import type { System } from './system.ts';
import { allQueues } from './queues.ts';
import { registerDurabilityGauges } from './durability-metrics.ts';

export interface ApiProcessMetrics {
  registry: MetricsRegistry;
  /** The ledger's onBatch: one observation per group-commit batch. */
  onAppendBatch(size: number): void;
}

/** Powers of two up to the largest batch the ledger forms. */
const BATCH_SIZE_BUCKETS = [1, 2, 4, 8, 16, 32, DEFAULT_BATCHING.maxBatchSize];

export function createApiProcessMetrics(): ApiProcessMetrics {
  const registry = createMetricsRegistry();
  const batchSizes = new Histogram({
    name: 'wallet_ledger_append_batch_size',
    help: 'Commands per group-commit batch (one statement, one commit), in this process.',
    buckets: BATCH_SIZE_BUCKETS,
    registers: [registry],
  });
  return { registry, onAppendBatch: (size) => batchSizes.observe(size) };
}

/** The queue gauges, on the registry of a process that works the jobs. */
export function addJobQueueMetrics(registry: MetricsRegistry, boss: JobBoss): void {
  registerJobQueueGauges(
    registry,
    boss,
    allQueues.map((queue) => queue.name),
  );
}

/** The worker process's registry: process metrics, operator gauges, the durability gauges and the job queues. */
export function createWorkerMetrics(system: Pick<System, 'db' | 'boss'>): MetricsRegistry {
  const registry = createMetricsRegistry();
  registerProjectionGauges(registry, system.db);
  registerVerifyGauges(registry, system.db);
  registerDurabilityGauges(registry, system.db);
  addJobQueueMetrics(registry, system.boss);
  return registry;
}
