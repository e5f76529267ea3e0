/**
 * Hashing of user secrets: passwords with argon2id, transaction PINs with bcrypt cost 12
 * (the spec's figure; the spec's browser client also sends a bcrypt hash at registration),
 * and one-time codes with HMAC-SHA256 under a pepper derived from the server secret.
 * Also the sub-keys derived from the one server secret.
 *
 * PIN bcrypt runs on a pool of worker threads, one per core, first come first served, each
 * thread at a lower scheduling priority (nice 10, set by the thread on itself) than the event
 * loop, Postgres and the projection workers: a cost-12 bcrypt is ~0.3 s of CPU in bcryptjs,
 * and on the event loop a burst of them starved every other request and, interleaved,
 * finished all together late (bench B2 saw 0 transfers complete in 8 s at 64 connections).
 * Queued, each finishes at the pool's pace and the API keeps answering everything else;
 * niced, the pool uses every core the rest leaves idle (on 2 cores, one thread at normal
 * priority left a core idle under transfer load) and yields it when the rest needs it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';
import argon2 from 'argon2';
import { Piscina } from 'piscina';
import { PIN_BCRYPT_COST } from '../contracts/users.ts';
import type { PinTask } from './pin-bcrypt-worker.ts';
import { IdentityRejection } from './rejections.ts';

export { PIN_BCRYPT_COST };

export async function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

/** A fixed hash to verify against when the e-mail is unknown, so timing does not tell. */
let decoyHash: Promise<string> | undefined;

export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (hash === null) {
    decoyHash ??= hashPassword('decoy-password-for-unknown-accounts');
    await argon2.verify(await decoyHash, password);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** Threads of the PIN bcrypt pool: one per core (niced, see above). */
export const PIN_POOL_THREADS = availableParallelism();
/**
 * bcrypt is rare now (the verifier answers most checks), so a long queue means something is
 * wrong - a burst of first checks, or an attacker: past this many waiting tasks, or this long
 * for one, the caller gets "busy, try again" (503) instead of a queue without end. The
 * timeout also ends a compare against a stored hash of a huge cost (one registered before
 * cost 12 was enforced): the task's thread is terminated and replaced.
 */
export const PIN_POOL_MAX_QUEUE = 32;
export const PIN_TASK_TIMEOUT_MS = 5_000;

let pinPool: Piscina<PinTask, string | boolean> | undefined;

async function pinBcrypt(task: PinTask): Promise<string | boolean> {
  pinPool ??= new Piscina({
    filename: new URL('./pin-bcrypt-worker.ts', import.meta.url).href,
    maxThreads: PIN_POOL_THREADS,
    minThreads: 0,
    idleTimeout: 30_000,
    maxQueue: PIN_POOL_MAX_QUEUE,
  });
  try {
    return await pinPool.run(task, { signal: AbortSignal.timeout(PIN_TASK_TIMEOUT_MS) });
  } catch (error) {
    if (isPoolRefusal(error))
      throw new IdentityRejection('PIN_CHECK_BUSY', 'Too many PIN checks at once. Please try again in a moment.', 1);
    throw error;
  }
}

/** The PIN pool's depth now (waiting tasks), for metrics and tests. */
export function pinPoolQueueSize(): number {
  return pinPool?.queueSize ?? 0;
}

function isPoolRefusal(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  const message = error instanceof Error ? error.message : '';
  return name === 'AbortError' || name === 'TimeoutError' || /queue is at limit|aborted/i.test(message);
}

export async function hashPin(pin: string): Promise<string> {
  return (await pinBcrypt({ op: 'hash', pin, cost: PIN_BCRYPT_COST })) as string;
}

export async function pinMatches(hash: string, pin: string): Promise<boolean> {
  return (await pinBcrypt({ op: 'compare', pin, hash })) as boolean;
}

/** A purpose-bound sub-key of the server secret (JWT secret): one root, independent uses. */
export function deriveKey(rootSecret: string, purpose: 'otp-pepper' | 'mail-seal'): Buffer {
  return createHmac('sha256', rootSecret).update(`wallet:${purpose}`).digest();
}

export function hashCode(pepper: Buffer, email: string, purpose: string, code: string): string {
  return createHmac('sha256', pepper).update(`${purpose}\n${email}\n${code}`).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
