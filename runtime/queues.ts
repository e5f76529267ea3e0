/**
 * Every pg-boss queue the system uses, created by `npm run migrate` and at start.
 */
import type { QueueSpec } from '../platform/jobs.ts';
import { notificationQueues } from '../notifications/queues.ts';
import { projectionQueues } from '../projections/engine/queues.ts';
import { replayQueues } from '../projections/engine/replay-jobs.ts';
import { maintenanceQueues } from './maintenance.ts';

export const allQueues: readonly QueueSpec[] = [
  ...projectionQueues,
  ...replayQueues,
  ...notificationQueues,
  ...maintenanceQueues,
];
