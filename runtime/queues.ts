/**
 * Every pg-boss queue the system uses, created by `npm run migrate` and at start: each domain's
 * own list (the read side's from its public entry).
 */
import type { QueueSpec } from '../platform/jobs.ts';
import { notificationQueues } from '../notifications/queues.ts';
import { projectionQueues, replayQueues } from '../projections/index.ts';
import { maintenanceQueues } from './maintenance.ts';

export const allQueues: readonly QueueSpec[] = [
  ...projectionQueues,
  ...replayQueues,
  ...notificationQueues,
  ...maintenanceQueues,
];
