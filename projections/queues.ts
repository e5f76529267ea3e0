/**
 * The projection workers' job queues. The wake-up job is enqueued by every appending
 * transaction, so a committed event is never left unprojected.
 */
import type { QueueSpec } from '../platform/jobs.ts';

export const PROJECTION_WAKE_QUEUE = 'projections.wake';

export const projectionQueues: readonly QueueSpec[] = [{ name: PROJECTION_WAKE_QUEUE, policy: 'standard', retryLimit: 5 }];
