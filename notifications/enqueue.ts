/**
 * Enqueueing e-mails inside the caller's transaction (see queues.ts for why).
 */
import type { Transaction } from 'kysely';
import { sendInTransaction, type JobBoss } from '../platform/jobs.ts';
import type { EmailJob } from './emails.ts';
import { EMAIL_QUEUE } from './queues.ts';

export async function enqueueEmail(boss: JobBoss, trx: Transaction<unknown>, job: EmailJob): Promise<void> {
  await sendInTransaction(boss, trx, EMAIL_QUEUE, job);
}
