/**
 * The projection workers' job queues. The wake-up job is enqueued by every appending
 * transaction, so a committed event is never left unprojected; the catch-up job is
 * scheduled (every minute) and drains whatever a lost or failed wake-up left behind.
 */
import type { QueueSpec } from '../platform/jobs.ts';

export const PROJECTION_WAKE_QUEUE = 'projections.wake';
export const PROJECTION_CATCH_UP_QUEUE = 'projections.catch-up';

export const projectionQueues: readonly QueueSpec[] = [
  { name: PROJECTION_WAKE_QUEUE, policy: 'standard', retryLimit: 5 },
  // One pending catch-up at a time: a slow one is not joined by a pile of others.
  { name: PROJECTION_CATCH_UP_QUEUE, policy: 'singleton', retryLimit: 1, expireInSeconds: 300 },
];
