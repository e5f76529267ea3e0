/**
 * The transaction PIN guard for money commands: PIN_NOT_SET when there is none, a wrong PIN
 * counted, 5 wrong in a row lock money commands for 15 minutes, a right PIN clears the
 * count. Checks of one user's PIN run one at a time, under a session-level advisory lock
 * on the user, so parallel guesses are counted one by one and cannot outrun the lockout.
 * Not under a row lock in a transaction: `SELECT ... FOR UPDATE` gives the transaction an
 * xid, and an xid held open over bcrypt (hundreds of ms, seconds under load) holds back the
 * snapshot xmin that every projection waits behind (bench B3 saw > 5 s of lag).
 *
 * Call it with the pool (not inside the money command's transaction): the count of a
 * wrong try must be committed although the command then fails.
 */
import { sql, type Kysely } from 'kysely';
import { systemClock, type Clock } from './clock.ts';
import { IdentityRejection } from './rejections.ts';
import { hashPin, pinMatches } from './secrets.ts';
import { identityDb } from './users.ts';
import type { IdentityTables } from './tables.ts';

export const MAX_PIN_ATTEMPTS = 5;
export const PIN_LOCK_MINUTES = 15;

export const PIN_NOT_SET_MESSAGE = 'Please set your transaction PIN first in settings.';

type Outcome = { ok: true } | { ok: false; rejection: IdentityRejection };

/** The advisory-lock class of PIN checks (the key is the user id's hash): any constant of ours. */
const PIN_CHECK_LOCK_CLASS = 7_311;

export async function verifyTransactionPin(db: Kysely<unknown>, userId: string, pin: string, clock: Clock = systemClock): Promise<void> {
  if (db.isTransaction) throw new Error('verifyTransactionPin needs the pool: a wrong try must be committed even when the caller rolls back');
  const outcome = await db.connection().execute(async (connection): Promise<Outcome> => {
    await sql`select pg_advisory_lock(${PIN_CHECK_LOCK_CLASS}, hashtext(${userId}))`.execute(connection);
    try {
      return await checkPin(identityDb(connection), userId, pin, clock);
    } finally {
      await sql`select pg_advisory_unlock(${PIN_CHECK_LOCK_CLASS}, hashtext(${userId}))`.execute(connection);
    }
  });
  if (!outcome.ok) throw outcome.rejection;
}

/** One check, each statement committing by itself: the caller holds the user's PIN lock. */
async function checkPin(users: Kysely<IdentityTables>, userId: string, pin: string, clock: Clock): Promise<Outcome> {
  const row = await users
    .selectFrom('identity.users')
    .select(['pin_hash', 'failed_pin_attempts', 'pin_locked_until'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!row) return { ok: false, rejection: new IdentityRejection('user_not_found', 'User not found') };
  if (row.pin_hash === null) return { ok: false, rejection: new IdentityRejection('PIN_NOT_SET', PIN_NOT_SET_MESSAGE) };
  const now = clock.now();
  if (row.pin_locked_until && row.pin_locked_until.getTime() > now.getTime()) return { ok: false, rejection: locked(row.pin_locked_until.getTime() - now.getTime()) };
  if (await pinMatches(row.pin_hash, pin)) {
    if (row.failed_pin_attempts > 0 || row.pin_locked_until) {
      await users.updateTable('identity.users').set({ failed_pin_attempts: 0, pin_locked_until: null }).where('id', '=', userId).execute();
    }
    return { ok: true };
  }
  const attempts = row.failed_pin_attempts + 1;
  if (attempts >= MAX_PIN_ATTEMPTS) {
    const until = new Date(now.getTime() + PIN_LOCK_MINUTES * 60_000);
    await users.updateTable('identity.users').set({ failed_pin_attempts: 0, pin_locked_until: until }).where('id', '=', userId).execute();
    return { ok: false, rejection: locked(until.getTime() - now.getTime()) };
  }
  await users.updateTable('identity.users').set({ failed_pin_attempts: attempts, pin_locked_until: null }).where('id', '=', userId).execute();
  const remaining = MAX_PIN_ATTEMPTS - attempts;
  return { ok: false, rejection: new IdentityRejection('invalid_pin', `Invalid transaction PIN. ${remaining} ${remaining === 1 ? 'attempt' : 'attempts'} remaining.`) };
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
