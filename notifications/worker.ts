/**
 * The e-mail worker: takes jobs from the notifications queue, unseals codes, renders and
 * sends. A failed send throws, so pg-boss retries it (retryLimit in queues.ts).
 */
import type { JobBoss } from '../platform/jobs.ts';
import { EMAIL_QUEUE } from './queues.ts';
import { emailJobSchema, renderAccountVerified, renderOneTimeCode, type RenderedEmail } from './emails.ts';
import type { Mailer } from './mailer.ts';
import { unseal } from './seal.ts';

export interface MailWorkerOptions {
  mailer: Mailer;
  /** The key that sealed the codes (deriveKey(jwtSecret, 'mail-seal')). */
  sealKey: Buffer;
  publicUrl: string;
  pollingIntervalSeconds?: number;
}

/** Bounded batch: one poll sends at most this many mails. */
const MAILS_PER_BATCH = 10;

export function renderEmailJob(
  data: unknown,
  options: Pick<MailWorkerOptions, 'sealKey' | 'publicUrl'>,
): RenderedEmail {
  const job = emailJobSchema.parse(data);
  switch (job.kind) {
    case 'one_time_code':
      return renderOneTimeCode(job.to, job.purpose, unseal(options.sealKey, job.sealedCode), job.validMinutes);
    case 'account_verified':
      return renderAccountVerified(job.to, job.firstName, options.publicUrl);
    default: {
      const unknownJob: never = job;
      throw new Error(`unknown e-mail job ${JSON.stringify(unknownJob)}`);
    }
  }
}

/** Starts the worker; returns its pg-boss worker id (for boss.offWork). */
export async function startMailWorker(boss: JobBoss, options: MailWorkerOptions): Promise<string> {
  return boss.work(
    EMAIL_QUEUE,
    { batchSize: MAILS_PER_BATCH, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
    async (jobs) => {
      for (const job of jobs) await options.mailer.send(renderEmailJob(job.data, options));
    },
  );
}
