/**
 * Google sign-in policy. The provider's profile is trusted only for an e-mail the provider
 * says it verified. A known Google subject signs into its account; otherwise an account
 * with that e-mail is linked to the subject, and becomes a Google account: its password and
 * PIN are cleared, its sessions end and it goes back to admin verification; otherwise a new
 * account is created: unverified (an admin activates it, as for every registration) and
 * without a PIN (set through the PIN-reset e-mail). Whether the account may then sign in is
 * decided by the caller on `isVerified`, as for passwords. An admin's account is never linked
 * (the sign-in is refused): it signs in with the password the operator gave it.
 *
 * Why linking clears the credentials: registration never proves that the registrant owns
 * the address. Someone who registered victim@gmail.com first would otherwise keep their
 * password and PIN - and the money - after the real owner signs in with Google. The person
 * Google vouches for is the owner from then on; whatever secrets were set before belong to
 * whoever registered, so they go. The owner sets a new PIN through the e-mailed PIN reset.
 *
 * Why it goes back to verification: what the admin verified were the registrant's identity
 * details (name, ID document, address), and they stay on the account. The Google owner is a
 * person no admin has checked against them, so until an admin verifies the account again it
 * is what a new registration is: no token is issued, and every signed-in route - paying out
 * of the wallet included - answers USER_NOT_VERIFIED (api/auth/authenticate.ts). The money
 * stays where it is meanwhile. An admin account is left alone instead: sending it back to
 * verification could lock out the only admin, with nobody left to verify it.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { boundedText, EMAIL_PATTERN, MAX_EMAIL_LENGTH } from '../contracts/fields.ts';
import type { Ledger, LedgerTables } from '../ledger/index.ts';
import { transactionView } from '../platform/database.ts';
import { isUniqueViolation } from './registration.ts';
import { findAccount, identityDb, NO_TRANSACTION_PIN, type AccountSummary } from './users.ts';

/** The OpenID Connect userinfo fields we read. */
export const googleProfileSchema = z.object({
  sub: z.string().min(1).max(255),
  email: boundedText({ max: MAX_EMAIL_LENGTH, trim: true }).toLowerCase().regex(EMAIL_PATTERN),
  email_verified: z.union([z.boolean(), z.literal('true')]).optional(),
  given_name: z.string().max(100).optional(),
  family_name: z.string().max(100).optional(),
  name: z.string().max(200).optional(),
});
export type GoogleProfile = z.infer<typeof googleProfileSchema>;

export class GoogleSignInRefused extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'GoogleSignInRefused';
  }
}

export async function signInWithGoogle(
  db: Kysely<unknown>,
  ledger: Ledger,
  profile: GoogleProfile,
): Promise<AccountSummary> {
  if (profile.email_verified !== true && profile.email_verified !== 'true')
    throw new GoogleSignInRefused('the provider has not verified this e-mail');
  const userId = await db
    .transaction()
    .execute(async (trx) => {
      const users = identityDb(trx);
      const bySubject = await users
        .selectFrom('identity.users')
        .select('id')
        .where('google_subject', '=', profile.sub)
        .executeTakeFirst();
      if (bySubject) return bySubject.id;
      const byEmail = await users
        .selectFrom('identity.users')
        .select(['id', 'google_subject', 'is_admin'])
        .where('email', '=', profile.email)
        .forUpdate()
        .executeTakeFirst();
      if (byEmail) {
        if (byEmail.google_subject !== null)
          throw new GoogleSignInRefused('this e-mail is linked to another Google account');
        if (byEmail.is_admin)
          throw new GoogleSignInRefused('an admin account signs in with its password, not with Google');
        await linkToGoogle(trx, byEmail.id, profile.sub);
        return byEmail.id;
      }
      return createGoogleUser(trx, ledger, profile);
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error))
        throw new GoogleSignInRefused('this account was created at the same time; try again');
      throw error;
    });
  const account = await findAccount(db, userId);
  if (!account) throw new GoogleSignInRefused('account vanished');
  return account;
}

/**
 * The address's owner takes the account over: no earlier password, PIN or session survives,
 * nor the admin's verification of the registrant's details.
 */
async function linkToGoogle(
  trx: Parameters<typeof transactionView>[0],
  userId: string,
  googleSubject: string,
): Promise<void> {
  await identityDb(trx)
    .updateTable('identity.users')
    .set((eb) => ({
      google_subject: googleSubject,
      auth_provider: 'google',
      password_hash: null,
      ...NO_TRANSACTION_PIN,
      is_verified: false,
      session_version: eb('session_version', '+', 1),
      updated_at: new Date(),
    }))
    .where('id', '=', userId)
    .execute();
}

async function createGoogleUser(
  trx: Parameters<typeof transactionView>[0],
  ledger: Ledger,
  profile: GoogleProfile,
): Promise<string> {
  const userId = randomUUID();
  const { firstName, lastName } = namesOf(profile);
  await identityDb(trx)
    .insertInto('identity.users')
    .values({
      id: userId,
      email: profile.email,
      first_name: firstName,
      last_name: lastName,
      contact_no: null,
      identification: null,
      identification_number: null,
      address: null,
      password_hash: null,
      pin_hash: null,
      is_admin: false,
      is_verified: false,
      auth_provider: 'google',
      google_subject: profile.sub,
    })
    .execute();
  await ledger
    .within(transactionView<LedgerTables>(trx))
    .openWallet({ accountId: userId, displayName: `${firstName} ${lastName}`.trim() }, { actorId: userId });
  return userId;
}

function namesOf(profile: GoogleProfile): { firstName: string; lastName: string } {
  const [fromNameFirst = '', ...fromNameRest] = (profile.name ?? '').trim().split(/\s+/);
  const firstName = profile.given_name?.trim() || fromNameFirst || profile.email.split('@')[0] || 'Google';
  const lastName = profile.family_name?.trim() || fromNameRest.join(' ') || '-';
  return { firstName, lastName };
}
