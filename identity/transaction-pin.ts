/**
 * The transaction PIN guard for money commands: PIN_NOT_SET when there is none, a wrong PIN
 * counted, 5 wrong in a row lock money commands for 15 minutes, a right PIN clears the
 * count. The check runs under the user's row lock, so parallel guesses are counted one by
 * one and cannot outrun the lockout.
 *
 * Call it with the pool (not inside the money command's transaction): the count of a
 * wrong try must be committed although the command then fails.
 */
import type { Kysely } from 'kysely';
import { systemClock, type Clock } from './clock.ts';
import { IdentityRejection } from './rejections.ts';
import { hashPin, pinMatches } from './secrets.ts';
import { identityDb } from './users.ts';

export const MAX_PIN_ATTEMPTS = 5;
export const PIN_LOCK_MINUTES = 15;

export const PIN_NOT_SET_MESSAGE = 'Please set your transaction PIN first in settings.';

type Outcome = { ok: true } | { ok: false; rejection: IdentityRejection };

export async function verifyTransactionPin(db: Kysely<unknown>, userId: string, pin: string, clock: Clock = systemClock): Promise<void> {
  if (db.isTransaction) throw new Error('verifyTransactionPin needs the pool: a wrong try must be committed even when the caller rolls back');
  const outcome = await db.transaction().execute(async (trx): Promise<Outcome> => {
    const users = identityDb(trx);
    const row = await users
      .selectFrom('identity.users')
      .select(['pin_hash', 'failed_pin_attempts', 'pin_locked_until'])
      .where('id', '=', userId)
      .forUpdate()
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
  });
  if (!outcome.ok) throw outcome.rejection;
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
