/**
 * Registration: the user row and its wallet (account number = user id) in one transaction,
 * so there is never a user without a wallet or a wallet without an owner. Only the fields
 * of the registration payload are read; role, state and balance are the server's.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { isAcceptableBcryptHash, type registerPayloadSchema } from '../contracts/users.ts';
import type { Ledger, LedgerTables } from '../ledger/index.ts';
import { transactionView } from '../platform/database.ts';
import { IdentityRejection } from './rejections.ts';
import type { PinKeys } from './pin-verifier.ts';
import { hashPassword } from './secrets.ts';
import { pinColumnsFor } from './transaction-pin.ts';
import { identityDb } from './users.ts';

export type RegistrationInput = z.output<typeof registerPayloadSchema>;

export const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists';

export async function registerUser(
  db: Kysely<unknown>,
  ledger: Ledger,
  input: RegistrationInput,
  pinKeys: PinKeys,
  /** The HTTP request registering, named in the wallet-opening event's metadata. */
  requestId?: string,
): Promise<{ userId: string }> {
  // Random (v4), unlike the ids of money movements (platform/ids.ts): the user id is the account
  // number people hand to payers, and a time-ordered one would tell them when the account was opened.
  const userId = randomUUID();
  // The spec's browser client sends bcrypt(PIN); it is stored as it is, and its verifier is
  // written at the first right PIN. Plain digits (our web app) are hashed here, so the server
  // enforces the 4-6 digit rule for them, and get their verifier at once.
  const pin = isAcceptableBcryptHash(input.transactionPin)
    ? { pin_hash: input.transactionPin }
    : await pinColumnsFor(pinKeys, userId, input.transactionPin);
  const passwordHash = await hashPassword(input.password);
  try {
    await db.transaction().execute(async (trx) => {
      const taken = await identityDb(trx)
        .selectFrom('identity.users')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['email']), '=', input.email))
        .executeTakeFirst();
      if (taken) throw new IdentityRejection('email_taken', EMAIL_TAKEN_MESSAGE);
      await identityDb(trx)
        .insertInto('identity.users')
        .values({
          id: userId,
          email: input.email,
          first_name: input.firstName,
          last_name: input.lastName,
          contact_no: input.contactNo,
          identification: input.identification,
          identification_number: input.identificationNumber,
          address: input.address,
          password_hash: passwordHash,
          ...pin,
          is_admin: false,
          is_verified: false,
          auth_provider: 'local',
        })
        .execute();
      await ledger
        .within(transactionView<LedgerTables>(trx))
        .openWallet(
          { accountId: userId, displayName: `${input.firstName} ${input.lastName}` },
          { actorId: userId, requestId },
        );
    });
  } catch (error) {
    throw isUniqueViolation(error) ? new IdentityRejection('email_taken', EMAIL_TAKEN_MESSAGE) : error;
  }
  return { userId };
}

/** Two registrations of one e-mail racing past the check: the unique index decides. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505';
}
