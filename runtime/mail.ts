/**
 * Mail delivery as a process runs it. notifications/ owns the mailer and the e-mail worker;
 * this picks the transport from configuration (SMTP_URL, or the log plus
 * <DATA_DIR>/outbox/*.eml when unset) and the seal key the API sealed codes with.
 */
import { join } from 'node:path';
import { deriveKey } from '../identity/index.ts';
import { createMailer } from '../notifications/mailer.ts';
import { startMailWorker } from '../notifications/worker.ts';
import type { Config } from '../platform/config.ts';
import type { JobBoss } from '../platform/jobs.ts';
import type { Logger } from '../platform/logger.ts';

export interface MailDelivery {
  /** Closes the transport; the jobs stop with pg-boss. */
  stop(): void;
}

export async function startMailDelivery(
  config: Config,
  boss: JobBoss,
  jwtSecret: string,
  log: Logger,
): Promise<MailDelivery> {
  const mailer = createMailer({
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    outboxDir: join(config.DATA_DIR, 'outbox'),
    log,
  });
  await startMailWorker(boss, {
    mailer,
    sealKey: deriveKey(jwtSecret, 'mail-seal'),
    publicUrl: config.PUBLIC_URL,
    log,
  });
  return { stop: () => mailer.close() };
}
