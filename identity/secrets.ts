/**
 * Hashing of user secrets: passwords with argon2id, transaction PINs with bcrypt cost 12
 * (the spec's figure; the spec's browser client also sends a bcrypt hash at registration),
 * and one-time codes with HMAC-SHA256 under a pepper derived from the server secret.
 * Also the sub-keys derived from the one server secret.
 *
 * PIN bcrypt runs on a pool of worker threads, one per core, first come first served, each
 * thread at a lower scheduling priority (nice 10, set by the thread on itself) than the event
 * loop, Postgres and the projection workers: a cost-12 bcrypt is CPU-bound and long, and on the
 * event loop a burst of them starved every other request and, interleaved, finished all
 * together late (the figures: bench/RESULTS.md, "PIN and password hashing costs").
 * Queued, each finishes at the pool's pace and the API keeps answering everything else;
 * niced, the pool uses every core the rest leaves idle (a thread at normal priority left one
 * idle under transfer load) and yields it when the rest needs it.
 *
 * Password hashes (argon2id, node-argon2's defaults: 64 MiB, 3 passes, 4 lanes) take 64 MiB
 * each while they run, and libuv ran four at once, so a burst of sign-ins multiplied the API's
 * resident memory. One hash already runs its four lanes on four threads,
 * so more hashes at once than cores / 4 buy no throughput: they are queued to that many
 * (at least one), and a burst costs 64 MiB per running hash, not per request.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';
import argon2 from 'argon2';
import pLimit from 'p-limit';
import { Piscina } from 'piscina';
import { PIN_BCRYPT_COST } from '../contracts/users.ts';
import { IdentityRejection } from './rejections.ts';

export { PIN_BCRYPT_COST };

/** argon2id's lanes: node-argon2's default parallelism, each lane a thread. */
const ARGON2_LANES = 4;
/** Password hashes that run at once (see the header); the rest wait their turn. */
export const PASSWORD_HASHES_AT_ONCE = Math.max(1, Math.floor(availableParallelism() / ARGON2_LANES));
const passwordHashing = pLimit(PASSWORD_HASHES_AT_ONCE);

export async function hashPassword(password: string): Promise<string> {
  return passwordHashing(() => argon2.hash(password, { type: argon2.argon2id, parallelism: ARGON2_LANES }));
}

/** Password hashes running and waiting their turn (tests, and the API's metrics). */
export function passwordHashQueue(): { running: number; waiting: number } {
  return { running: passwordHashing.activeCount, waiting: passwordHashing.pendingCount };
}

function verifyArgon2(hash: string, password: string): Promise<boolean> {
  return passwordHashing(() => argon2.verify(hash, password));
}

/** A fixed hash to verify against when the e-mail is unknown, so timing does not tell. */
let decoyHash: Promise<string> | undefined;

export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (hash === null) {
    decoyHash ??= hashPassword('decoy-password-for-unknown-accounts');
    await verifyArgon2(await decoyHash, password);
    return false;
  }
  try {
    return await verifyArgon2(hash, password);
  } catch {
    return false;
  }
}

/** A task of the PIN pool's threads (identity/pin-bcrypt-worker.js). */
export type PinTask = { op: 'hash'; pin: string; cost: number } | { op: 'compare'; pin: string; hash: string };

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
    filename: new URL('./pin-bcrypt-worker.js', import.meta.url).href,
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
