/**
 * Password sign-in. One message for a wrong e-mail and a wrong password; the state of an
 * account (Google-only, unverified or suspended) is told only to someone who could have
 * signed in, except OAUTH_USER, which the spec's client needs to show its hint.
 */
import type { Kysely } from 'kysely';
import { IdentityRejection } from './rejections.ts';
import { verifyPassword } from './secrets.ts';
import { findAccount, identityDb, type AccountSummary } from './users.ts';

export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password';
export const NOT_VERIFIED_MESSAGE = 'Please verify your email address to continue.';

export async function signInWithPassword(
  db: Kysely<unknown>,
  email: string,
  password: string,
): Promise<AccountSummary> {
  const row = await identityDb(db)
    .selectFrom('identity.users')
    .select(['id', 'password_hash', 'auth_provider', 'is_verified'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
  if (row && row.password_hash === null && row.auth_provider === 'google') {
    throw new IdentityRejection('OAUTH_USER', 'Please use Google to sign in to your account');
  }
  const matches = await verifyPassword(row?.password_hash ?? null, password);
  if (!row || !matches) throw new IdentityRejection('invalid_credentials', INVALID_CREDENTIALS_MESSAGE);
  if (!row.is_verified) throw new IdentityRejection('USER_NOT_VERIFIED', NOT_VERIFIED_MESSAGE);
  const account = await findAccount(db, row.id);
  if (!account) throw new IdentityRejection('invalid_credentials', INVALID_CREDENTIALS_MESSAGE);
  return account;
}
