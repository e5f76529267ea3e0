/**
 * E-mailed one-time codes for password and PIN reset (spec sections 4, 7, 9): 6 random
 * digits, stored as an HMAC, valid 15 min (password) / 10 min (PIN), 5 wrong tries void
 * the code, a new code only 60 s after the last one, and at most 5 codes per address and
 * purpose per UTC day: every new code brings 5 fresh attempts, so without a daily cap the
 * resend wait alone would allow ~7,000 guesses a day at one address.
 *
 * Unknown e-mails: every step answers exactly as for a known e-mail (same messages, same
 * waits, same attempt counting), because a row is kept for any address asked about; no
 * mail is sent and no code can succeed. The one exception is OAUTH_USER on a password
 * code for a Google account, which the spec's client needs.
 *
 * A failed try must count even though the request fails, so each step commits its writes
 * first and reports the outcome afterwards.
 */
import { randomInt } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { JobBoss } from '../platform/jobs.ts';
import { enqueueEmail } from '../notifications/enqueue.ts';
import { seal } from '../notifications/seal.ts';
import type { Clock } from './clock.ts';
import { IdentityRejection } from './rejections.ts';
import { pinVerifier, type PinKeys } from './pin-verifier.ts';
import { hashCode, hashPassword, hashPin, sameHash } from './secrets.ts';
import { PIN_UNLOCKED } from './transaction-pin.ts';
import type { CodePurpose } from './tables.ts';
import { identityDb } from './users.ts';

export const CODE_VALIDITY_MINUTES: Readonly<Record<CodePurpose, number>> = { password: 15, pin: 10 };
export const MAX_CODE_ATTEMPTS = 5;
export const RESEND_WAIT_SECONDS = 60;
/** Codes per address, purpose and UTC day: at most 25 guesses a day against a million codes. */
export const MAX_CODES_PER_DAY = 5;
/** Rows of long-expired codes are swept when new codes are issued. */
const SWEEP_AFTER_MS = 24 * 60 * 60 * 1000;

export interface CodeDependencies {
  db: Kysely<unknown>;
  boss: JobBoss;
  clock: Clock;
  otpPepper: Buffer;
  sealKey: Buffer;
  /** A PIN reset writes the new PIN's verifier. */
  pinKeys: PinKeys;
}

type Outcome = { ok: true } | { ok: false; rejection: IdentityRejection };

export async function issueCode(
  deps: CodeDependencies,
  email: string,
  purpose: CodePurpose,
  /** The HTTP request asking, carried by the mail job so its log line names it. */
  requestId?: string,
): Promise<{ email: string; expiresIn: string }> {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const db = identityDb(trx);
    const user = await db
      .selectFrom('identity.users')
      .select(['id', 'auth_provider', 'password_hash'])
      .where('email', '=', email)
      .executeTakeFirst();
    if (purpose === 'password' && user && user.auth_provider === 'google' && user.password_hash === null) {
      throw new IdentityRejection('OAUTH_USER', 'Please use Google to sign in to your account');
    }
    const previous = await db
      .selectFrom('identity.one_time_codes')
      .select('last_sent_at')
      .where('email', '=', email)
      .where('purpose', '=', purpose)
      .forUpdate()
      .executeTakeFirst();
    if (previous) {
      const waitMs = previous.last_sent_at.getTime() + RESEND_WAIT_SECONDS * 1000 - now.getTime();
      if (waitMs > 0) {
        const seconds = Math.ceil(waitMs / 1000);
        throw new IdentityRejection(
          'otp_resend_wait',
          `Please wait ${seconds} seconds before requesting a new OTP`,
          seconds,
        );
      }
    }
    await countIssue(trx, email, purpose, now);
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const row = {
      user_id: user?.id ?? null,
      code_hash: hashCode(deps.otpPepper, email, purpose, code),
      expires_at: new Date(now.getTime() + CODE_VALIDITY_MINUTES[purpose] * 60_000),
      attempts: 0,
      verified_at: null,
      last_sent_at: now,
    };
    await db
      .insertInto('identity.one_time_codes')
      .values({ email, purpose, ...row })
      .onConflict((conflict) => conflict.columns(['email', 'purpose']).doUpdateSet(row))
      .execute();
    await db
      .deleteFrom('identity.one_time_codes')
      .where('expires_at', '<', new Date(now.getTime() - SWEEP_AFTER_MS))
      .execute();
    if (user) {
      await enqueueEmail(deps.boss, trx, {
        kind: 'one_time_code',
        to: email,
        purpose,
        sealedCode: seal(deps.sealKey, code),
        validMinutes: CODE_VALIDITY_MINUTES[purpose],
        ...(requestId ? { requestId } : {}),
      });
    }
  });
  return { email, expiresIn: `${CODE_VALIDITY_MINUTES[purpose]} minutes` };
}

/**
 * Counts one more code for the address today, or refuses past the cap. Unknown addresses
 * are counted the same way, so the cap does not tell which addresses have accounts.
 */
async function countIssue(trx: Transaction<unknown>, email: string, purpose: CodePurpose, now: Date): Promise<void> {
  const day = now.toISOString().slice(0, 10);
  const counted = await identityDb(trx)
    .insertInto('identity.code_issues')
    .values({ email, purpose, day, issued: 1 })
    .onConflict((conflict) =>
      conflict
        .columns(['email', 'purpose', 'day'])
        .doUpdateSet((eb) => ({ issued: eb('identity.code_issues.issued', '+', 1) }))
        .where('identity.code_issues.issued', '<', MAX_CODES_PER_DAY),
    )
    .returning('issued')
    .executeTakeFirst();
  if (!counted) {
    const tomorrow = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    throw new IdentityRejection(
      'otp_daily_limit',
      'Too many codes requested for this email today. Please try again tomorrow.',
      Math.ceil((tomorrow - now.getTime()) / 1000),
    );
  }
  const sweepBefore = new Date(now.getTime() - 2 * SWEEP_AFTER_MS).toISOString().slice(0, 10);
  await sql`delete from identity.code_issues where day < ${sweepBefore}::date`.execute(trx);
}

/** Step 2: checks the code and marks it verified (a wrong try counts). */
export async function verifyCode(
  deps: CodeDependencies,
  email: string,
  purpose: CodePurpose,
  code: string,
): Promise<void> {
  const outcome = await deps.db
    .transaction()
    .execute((trx) => checkCode(deps, trx, email, purpose, code, { requireVerified: false }));
  if (!outcome.ok) throw outcome.rejection;
}

/** Step 3, password: the verified code again, then the new password; old tokens stop working. */
export async function resetPassword(
  deps: CodeDependencies,
  email: string,
  code: string,
  newPassword: string,
): Promise<void> {
  const passwordHash = await hashPassword(newPassword);
  await consumeCode(deps, email, 'password', code, async (trx, userId) => {
    await identityDb(trx)
      .updateTable('identity.users')
      .set((eb) => ({
        password_hash: passwordHash,
        session_version: eb('session_version', '+', 1),
        updated_at: deps.clock.now(),
      }))
      .where('id', '=', userId)
      .execute();
  });
}

/** Step 3, PIN: sets the PIN (also the way Google accounts get one) and lifts every PIN lockout. */
export async function resetTransactionPin(
  deps: CodeDependencies,
  email: string,
  code: string,
  newPin: string,
): Promise<void> {
  // Hashed before the transaction (bcrypt is slow); the verifier needs the user id, known inside.
  const pinHash = await hashPin(newPin);
  await consumeCode(deps, email, 'pin', code, async (trx, userId) => {
    await identityDb(trx)
      .updateTable('identity.users')
      .set({
        pin_hash: pinHash,
        pin_verifier: pinVerifier(deps.pinKeys, userId, pinHash, newPin),
        pin_verifier_key: deps.pinKeys.keyId,
        ...PIN_UNLOCKED,
        updated_at: deps.clock.now(),
      })
      .where('id', '=', userId)
      .execute();
  });
}

async function consumeCode(
  deps: CodeDependencies,
  email: string,
  purpose: CodePurpose,
  code: string,
  apply: (trx: Transaction<unknown>, userId: string) => Promise<void>,
): Promise<void> {
  const outcome = await deps.db.transaction().execute(async (trx): Promise<Outcome> => {
    const checked = await checkCode(deps, trx, email, purpose, code, { requireVerified: true });
    if (!checked.ok) return checked;
    const row = await identityDb(trx)
      .deleteFrom('identity.one_time_codes')
      .where('email', '=', email)
      .where('purpose', '=', purpose)
      .returning('user_id')
      .executeTakeFirst();
    if (!row?.user_id) return { ok: false, rejection: expired() };
    await apply(trx, row.user_id);
    return { ok: true };
  });
  if (!outcome.ok) throw outcome.rejection;
}

async function checkCode(
  deps: CodeDependencies,
  trx: Transaction<unknown>,
  email: string,
  purpose: CodePurpose,
  code: string,
  options: { requireVerified: boolean },
): Promise<Outcome> {
  const db = identityDb(trx);
  const row = await db
    .selectFrom('identity.one_time_codes')
    .select(['code_hash', 'expires_at', 'attempts', 'verified_at'])
    .where('email', '=', email)
    .where('purpose', '=', purpose)
    .forUpdate()
    .executeTakeFirst();
  if (!row || row.expires_at.getTime() <= deps.clock.now().getTime()) return { ok: false, rejection: expired() };
  if (row.code_hash === null || row.attempts >= MAX_CODE_ATTEMPTS) return { ok: false, rejection: tooManyAttempts() };
  if (!sameHash(row.code_hash, hashCode(deps.otpPepper, email, purpose, code))) {
    const attempts = row.attempts + 1;
    const voided = attempts >= MAX_CODE_ATTEMPTS;
    await db
      .updateTable('identity.one_time_codes')
      .set({ attempts, ...(voided ? { code_hash: null } : {}) })
      .where('email', '=', email)
      .where('purpose', '=', purpose)
      .execute();
    const remaining = MAX_CODE_ATTEMPTS - attempts;
    return {
      ok: false,
      rejection: voided
        ? tooManyAttempts()
        : new IdentityRejection(
            'otp_invalid',
            `Invalid OTP. ${remaining} ${remaining === 1 ? 'attempt' : 'attempts'} remaining.`,
          ),
    };
  }
  if (options.requireVerified && row.verified_at === null) {
    return { ok: false, rejection: new IdentityRejection('otp_not_verified', 'Please verify the OTP first') };
  }
  if (!options.requireVerified) {
    await db
      .updateTable('identity.one_time_codes')
      .set({ verified_at: deps.clock.now() })
      .where('email', '=', email)
      .where('purpose', '=', purpose)
      .execute();
  }
  return { ok: true };
}

function expired(): IdentityRejection {
  return new IdentityRejection('otp_expired', 'OTP has expired or was not requested. Please request a new one.');
}

function tooManyAttempts(): IdentityRejection {
  return new IdentityRejection('otp_attempts_exceeded', 'Too many failed attempts. Please request a new OTP.');
}
