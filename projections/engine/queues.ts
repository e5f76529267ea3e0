/**
 * The projection workers' job queue: the catch-up job, scheduled every minute, drains
 * whatever a lost wake-up (projections/engine/wake-up.ts) left behind.
 */
import type { QueueSpec } from '../../platform/jobs.ts';

export const PROJECTION_CATCH_UP_QUEUE = 'projections.catch-up';

export const projectionQueues: readonly QueueSpec[] = [
  // One pending catch-up at a time: a slow one is not joined by a pile of others.
  { name: PROJECTION_CATCH_UP_QUEUE, policy: 'singleton', retryLimit: 1, expireInSeconds: 300 },
];
