/**
 * What a process needs from identity and notifications at start, in one call for the
 * composition root: the server secret (JWT_SECRET or <DATA_DIR>/jwt-secret), the PIN pepper
 * (PIN_PEPPER or <DATA_DIR>/pin-pepper), the first admin (API processes), and the e-mail
 * worker (worker processes): SMTP_URL, or the log plus <DATA_DIR>/outbox/*.eml when unset.
 */
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Ledger } from '../ledger/index.ts';
import type { Config } from '../platform/config.ts';
import type { JobBoss } from '../platform/jobs.ts';
import { createMailer } from '../notifications/mailer.ts';
import { startMailWorker } from '../notifications/worker.ts';
import { ensureFirstAdmin } from './admin.ts';
import { resolveJwtSecret } from './jwt-secret.ts';
import { resolvePinPepper } from './pin-pepper.ts';
import { deriveKey } from './secrets.ts';

export interface IdentityRuntime {
  jwtSecret: string;
  /** The key of the peppered PIN verifier (identity/pin-pepper.ts). */
  pinPepper: string;
  stop(): void;
}

export async function startIdentity(input: {
  config: Config;
  db: Kysely<unknown>;
  boss: JobBoss;
  ledger: Ledger;
  /** api: first admin; worker: mail worker; all: both. */
  role: 'all' | 'api' | 'worker';
  log?: (line: string) => void;
}): Promise<IdentityRuntime> {
  const jwtSecret = await resolveJwtSecret(input.config);
  const pinPepper = await resolvePinPepper(input.config);
  if (input.role !== 'worker') await ensureFirstAdmin(input.db, input.ledger, input.config, input.log);
  if (input.role === 'api') return { jwtSecret, pinPepper, stop: () => {} };
  const mailer = createMailer({ smtpUrl: input.config.SMTP_URL, from: input.config.MAIL_FROM, outboxDir: join(input.config.DATA_DIR, 'outbox'), log: input.log });
  await startMailWorker(input.boss, { mailer, sealKey: deriveKey(jwtSecret, 'mail-seal'), publicUrl: input.config.PUBLIC_URL });
  return { jwtSecret, pinPepper, stop: () => mailer.close() };
}
