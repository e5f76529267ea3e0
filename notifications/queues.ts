/**
 * The notification job queue: every e-mail leaves through it, enqueued in the transaction
 * that decided to send it (no mail for a rolled-back change, none lost on a crash).
 */
import type { QueueSpec } from '../platform/jobs.ts';

export const EMAIL_QUEUE = 'notifications.email';

export const notificationQueues: readonly QueueSpec[] = [
  { name: EMAIL_QUEUE, policy: 'standard', retryLimit: 5, expireInSeconds: 120 },
];
