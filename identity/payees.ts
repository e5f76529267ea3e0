/**
 * Payees found by handle or mobile number (issue 43), and the handle a user chooses once.
 * Only active (verified) accounts are found: a suspended or unverified user is as unknown as
 * a number nobody registered, the same answer the account lookup gives. The mobile key is the
 * last ten digits of the registered contact number, the expression migrations/0006 indexes.
 */
import { sql, type Kysely } from 'kysely';
import type { PayeeKey } from '../contracts/payees.ts';
import { IdentityRejection } from './rejections.ts';
import { findAccount, identityDb, type AccountSummary } from './users.ts';

/** The indexed expression of migrations/0006, written once here for every query that reads it. */
const MOBILE_KEY = sql<string>`right(regexp_replace(contact_no, '[^0-9]', '', 'g'), 10)`;

/**
 * The active account a payee key names, or undefined. A mobile number registered by more than
 * one active account names none of them: a payer must not pay the wrong one of two people.
 */
export async function findActivePayee(db: Kysely<unknown>, payee: PayeeKey): Promise<AccountSummary | undefined> {
  const id = payee.kind === 'account' ? payee.key : await payeeIdOf(db, payee);
  if (id === undefined) return undefined;
  const account = await findAccount(db, id);
  return account?.isVerified ? account : undefined;
}

async function payeeIdOf(db: Kysely<unknown>, payee: PayeeKey): Promise<string | undefined> {
  const users = identityDb(db).selectFrom('identity.users').select('id').where('is_verified', '=', true);
  if (payee.kind === 'handle') {
    const row = await users.where('handle', '=', payee.key).executeTakeFirst();
    return row?.id;
  }
  // Two rows read at most: one is the payee, two make the number ambiguous.
  const rows = await users.where(MOBILE_KEY, '=', payee.key).where('contact_no', 'is not', null).limit(2).execute();
  return rows.length === 1 ? rows[0]?.id : undefined;
}

/**
 * Sets the user's handle, once: a handle is how others pay them, so changing it would send a
 * payer's saved `asha@wallet` to whoever takes it next. Taken by someone else: refused.
 */
export async function chooseHandle(db: Kysely<unknown>, userId: string, handle: string): Promise<void> {
  try {
    const result = await identityDb(db)
      .updateTable('identity.users')
      .set({ handle, updated_at: new Date() })
      .where('id', '=', userId)
      .where('handle', 'is', null)
      .executeTakeFirst();
    if (result.numUpdatedRows === 1n) return;
  } catch (error) {
    if (isUniqueViolation(error)) throw new IdentityRejection('handle_taken', 'This handle is already taken');
    throw error;
  }
  const current = await findAccount(db, userId);
  if (!current) throw new IdentityRejection('user_not_found', 'User not found');
  if (current.handle === handle) return;
  throw new IdentityRejection('handle_already_set', 'Your handle is already set and cannot be changed');
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === '23505';
}
