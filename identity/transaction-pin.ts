/**
 * The transaction PIN guard for money commands: PIN_NOT_SET when there is none, a wrong PIN
 * counted, 5 wrong in a row lock money commands for 15 minutes, a right PIN clears the
 * count.
 *
 * Every check first claims one attempt (one short UPDATE: count + 1, only while the count is
 * below the limit and the PIN is not locked), then compares without holding anything, then
 * settles: a right PIN clears the count, the wrong one that used the last attempt locks. So
 * parallel guesses are counted one by one and cannot outrun the lockout (at most 5 are ever
 * compared), and no database connection, row lock or transaction is held over bcrypt (~0.3 s,
 * seconds under load): a held connection starved the pool under load (bench B2: no transfer
 * finished in 8 s), and a transaction held open over it held back the snapshot xmin that
 * every projection waits behind (bench B3: > 5 s of lag). A crash between claim and settle
 * leaves the attempt counted as wrong: the safe side.
 *
 * Within one process, checks of one user's PIN queue behind each other (in memory, no
 * connection held), so a user's own burst of transfers never finds all attempts claimed by
 * its right PINs; across processes, a check that finds the last attempt being decided waits
 * for the verdict briefly before answering "locked".
 *
 * Call it with the pool (not inside the money command's transaction): the count of a
 * wrong try must be committed although the command then fails.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { systemClock, type Clock } from './clock.ts';
import { IdentityRejection } from './rejections.ts';
import { hashPin, pinMatches } from './secrets.ts';
import { identityDb } from './users.ts';

export const MAX_PIN_ATTEMPTS = 5;
export const PIN_LOCK_MINUTES = 15;

export const PIN_NOT_SET_MESSAGE = 'Please set your transaction PIN first in settings.';

/** How long a check waits for other processes' checks of the same PIN to settle. */
const CLAIM_WAIT_MS = 2_000;
const CLAIM_RETRY_MS = 25;

/** The tail of each user's queue of PIN checks in this process. */
const checksInFlight = new Map<string, Promise<unknown>>();

export async function verifyTransactionPin(db: Kysely<unknown>, userId: string, pin: string, clock: Clock = systemClock): Promise<void> {
  if (db.isTransaction) throw new Error('verifyTransactionPin needs the pool: a wrong try must be committed even when the caller rolls back');
  const previous = checksInFlight.get(userId) ?? Promise.resolve();
  const check = previous.catch(() => undefined).then(() => checkPin(db, userId, pin, clock));
  checksInFlight.set(userId, check);
  try {
    await check;
  } finally {
    if (checksInFlight.get(userId) === check) checksInFlight.delete(userId);
  }
}

async function checkPin(db: Kysely<unknown>, userId: string, pin: string, clock: Clock): Promise<void> {
  const users = identityDb(db);
  const now = clock.now();
  const claimed = await claimAttempt(db, userId, now);

  if (await pinMatches(claimed.pinHash, pin)) {
    await users.updateTable('identity.users').set({ failed_pin_attempts: 0, pin_locked_until: null }).where('id', '=', userId).execute();
    return;
  }
  if (claimed.attempts >= MAX_PIN_ATTEMPTS) {
    const until = new Date(now.getTime() + PIN_LOCK_MINUTES * 60_000);
    await users.updateTable('identity.users').set({ failed_pin_attempts: 0, pin_locked_until: until }).where('id', '=', userId).execute();
    throw locked(until.getTime() - now.getTime());
  }
  const remaining = MAX_PIN_ATTEMPTS - claimed.attempts;
  throw new IdentityRejection('invalid_pin', `Invalid transaction PIN. ${remaining} ${remaining === 1 ? 'attempt' : 'attempts'} remaining.`);
}

/** Counts one attempt (as wrong until proven right) and returns the hash to compare with. */
async function claimAttempt(db: Kysely<unknown>, userId: string, now: Date): Promise<{ pinHash: string; attempts: number }> {
  const waitUntil = Date.now() + CLAIM_WAIT_MS;
  for (;;) {
    const claimed = await identityDb(db)
      .updateTable('identity.users')
      .set((eb) => ({ failed_pin_attempts: eb('failed_pin_attempts', '+', 1) }))
      .where('id', '=', userId)
      .where('pin_hash', 'is not', null)
      .where('failed_pin_attempts', '<', MAX_PIN_ATTEMPTS)
      .where((eb) => eb.or([eb('pin_locked_until', 'is', null), eb('pin_locked_until', '<=', now)]))
      .returning(['pin_hash', 'failed_pin_attempts'])
      .executeTakeFirst();
    if (claimed?.pin_hash) return { pinHash: claimed.pin_hash, attempts: claimed.failed_pin_attempts };
    const row = await identityDb(db).selectFrom('identity.users').select(['pin_hash', 'pin_locked_until']).where('id', '=', userId).executeTakeFirst();
    if (!row) throw new IdentityRejection('user_not_found', 'User not found');
    if (row.pin_hash === null) throw new IdentityRejection('PIN_NOT_SET', PIN_NOT_SET_MESSAGE);
    if (row.pin_locked_until && row.pin_locked_until.getTime() > now.getTime()) throw locked(row.pin_locked_until.getTime() - now.getTime());
    // Every attempt is claimed by checks still deciding (in other processes): their verdict
    // either clears the count or locks.
    if (Date.now() > waitUntil) throw locked(PIN_LOCK_MINUTES * 60_000);
    await sleep(CLAIM_RETRY_MS);
  }
}

/** Changing the PIN needs the current one (checked, and counted, like a money command). */
export async function updateTransactionPin(db: Kysely<unknown>, userId: string, currentPin: string, newPin: string, clock: Clock = systemClock): Promise<void> {
  await verifyTransactionPin(db, userId, currentPin, clock);
  const pinHash = await hashPin(newPin);
  await identityDb(db).updateTable('identity.users').set({ pin_hash: pinHash, updated_at: clock.now() }).where('id', '=', userId).execute();
}

function locked(remainingMs: number): IdentityRejection {
  const minutes = Math.max(1, Math.ceil(remainingMs / 60_000));
  return new IdentityRejection(
    'PIN_LOCKED',
    `Too many wrong PIN attempts. Transfers and deposits are locked for ${minutes} more ${minutes === 1 ? 'minute' : 'minutes'}.`,
    Math.ceil(remainingMs / 1000),
  );
}
