/**
 * The e-mail worker: takes jobs from the notifications queue, unseals codes, renders and
 * sends. A failed send throws, so pg-boss retries it (retryLimit in queues.ts).
 */
import type { JobBoss } from '../platform/jobs.ts';
import { fallbackLogger, type Logger } from '../platform/logger.ts';
import { EMAIL_QUEUE } from './queues.ts';
import {
  emailJobSchema,
  renderAccountVerified,
  renderOneTimeCode,
  type EmailJob,
  type RenderedEmail,
} from './emails.ts';
import type { Mailer } from './mailer.ts';
import { unseal } from './seal.ts';

export interface MailWorkerOptions {
  mailer: Mailer;
  /** The key that sealed the codes (deriveKey(jwtSecret, 'mail-seal')). */
  sealKey: Buffer;
  publicUrl: string;
  pollingIntervalSeconds?: number;
  /** The process's logger: one line per job (its id, the request that enqueued it, the outcome). */
  log?: Logger;
}

/** Bounded batch: one poll sends at most this many mails. */
const MAILS_PER_BATCH = 10;

export function renderEmailJob(
  data: unknown,
  options: Pick<MailWorkerOptions, 'sealKey' | 'publicUrl'>,
): RenderedEmail {
  return renderParsedJob(emailJobSchema.parse(data), options);
}

function renderParsedJob(job: EmailJob, options: Pick<MailWorkerOptions, 'sealKey' | 'publicUrl'>): RenderedEmail {
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
  const log = (options.log ?? fallbackLogger).child({ component: 'mail' });
  return boss.work(
    EMAIL_QUEUE,
    { batchSize: MAILS_PER_BATCH, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
    async (jobs) => {
      for (const job of jobs) await sendJob(job, options, log);
    },
  );
}

/**
 * Sends one job's mail and says so; a failure is logged and thrown again, so pg-boss retries
 * it. The recipient is not logged (an address is personal data; the job id finds it).
 */
async function sendJob(job: { id: string; data: unknown }, options: MailWorkerOptions, log: Logger): Promise<void> {
  const parsed = emailJobSchema.safeParse(job.data);
  const requestId = parsed.success ? parsed.data.requestId : undefined;
  const line = { jobId: job.id, requestId, kind: parsed.success ? parsed.data.kind : undefined };
  try {
    if (!parsed.success) throw parsed.error;
    await options.mailer.send(renderParsedJob(parsed.data, options));
  } catch (error) {
    log.warn({ ...line, outcome: 'failed', err: error }, 'mail not sent; pg-boss retries the job');
    throw error;
  }
  log.info({ ...line, outcome: 'sent' }, 'mail sent');
}
