/**
 * The users table: lookups, the wire record (spec section 3) and the admin's status change.
 * Every query that leaves this module selects named columns; hashes are read only by the
 * functions that check them.
 */
import { sql, type Kysely } from 'kysely';
import type { UserRecord } from '../contracts/users.ts';
import { rupeesFromPaise } from '../contracts/money.ts';
import { tablesView } from '../platform/database.ts';
import { CHECKED_COLUMNS, documentCheckRecord, maskedNumber } from './identification.ts';
import { IdentityRejection } from './rejections.ts';
import type { AuthProvider, IdentityTables } from './tables.ts';

/** The account as the API sees it: no secrets, no counters. */
export interface AccountSummary {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  contactNo: string | null;
  handle: string | null;
  identification: string | null;
  identificationNumber: string | null;
  address: string | null;
  isAdmin: boolean;
  isVerified: boolean;
  authProvider: AuthProvider;
  pinSet: boolean;
  sessionVersion: number;
  createdAt: Date;
}

/** Reads a wallet's balance (paise) from the read model; injected by the composition root. */
export interface BalanceReader {
  ofAccount(accountId: string): Promise<bigint>;
}

export function identityDb(db: Kysely<unknown>): Kysely<IdentityTables> {
  return tablesView<IdentityTables>(db);
}

function summaryQuery(db: Kysely<unknown>) {
  return identityDb(db)
    .selectFrom('identity.users')
    .select((eb) => [
      'id',
      'email',
      'first_name',
      'last_name',
      'contact_no',
      'handle',
      'identification',
      'identification_number',
      'address',
      'is_admin',
      'is_verified',
      'auth_provider',
      'session_version',
      'created_at',
      eb('pin_hash', 'is not', null).as('pin_set'),
    ]);
}

/** A row of the accounts' summary query (accountsQuery), before toAccountSummary. */
export type AccountRow = Awaited<ReturnType<ReturnType<typeof summaryQuery>['executeTakeFirstOrThrow']>>;

export function toAccountSummary(row: AccountRow): AccountSummary {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    contactNo: row.contact_no,
    handle: row.handle,
    identification: row.identification,
    identificationNumber: row.identification_number,
    address: row.address,
    isAdmin: row.is_admin,
    isVerified: row.is_verified,
    authProvider: row.auth_provider,
    pinSet: Boolean(row.pin_set),
    sessionVersion: row.session_version,
    createdAt: row.created_at,
  };
}

export async function findAccount(db: Kysely<unknown>, userId: string): Promise<AccountSummary | undefined> {
  const row = await summaryQuery(db).where('id', '=', userId).executeTakeFirst();
  return row ? toAccountSummary(row) : undefined;
}

/** The accounts of several ids in one statement, by id (an unknown id is absent). */
export async function findAccounts(
  db: Kysely<unknown>,
  userIds: readonly string[],
): Promise<Map<string, AccountSummary>> {
  const rows = await accountsQuery(db, userIds).execute();
  return new Map(rows.map((row) => [row.id, toAccountSummary(row)]));
}

/**
 * findAccounts' query, for a statement that reads the accounts beside other work (the API's
 * session check and its rate-limit count in one: api/auth/rate-limit-store.ts). Its rows
 * become summaries through toAccountSummary.
 */
export function accountsQuery(db: Kysely<unknown>, userIds: readonly string[]) {
  return summaryQuery(db).where('id', '=', sql<string>`any(${[...new Set(userIds)]}::text[])`);
}

/** Every account, oldest first (the admin's list). */
export async function listAccounts(db: Kysely<unknown>): Promise<AccountSummary[]> {
  const rows = await summaryQuery(db).orderBy('created_at').orderBy('id').execute();
  return rows.map(toAccountSummary);
}

/**
 * Customers: accounts an admin has verified, admins not counted (the landing page's figure,
 * GET /api/stats). Read here, not from the read tables: whether an account is an admin is not
 * in the ledger's events (an account can be promoted later), only in this table.
 */
export async function countCustomers(db: Kysely<unknown>): Promise<bigint> {
  const row = await identityDb(db)
    .selectFrom('identity.users')
    .select((eb) => eb.fn.countAll<string>().as('customers'))
    .where('is_admin', '=', false)
    .where('is_verified', '=', true)
    .executeTakeFirst();
  return BigInt(row?.customers ?? 0);
}

export function toUserRecord(account: AccountSummary, balancePaise: bigint): UserRecord {
  return {
    _id: account.id,
    firstName: account.firstName,
    lastName: account.lastName,
    email: account.email,
    contactNo: account.contactNo,
    handle: account.handle,
    identification: account.identification,
    // Masked in every record, the customer's own included: the whole number is read only
    // through the admins' audited reveal (identity/identification.ts).
    identificationNumber: maskedNumber(account.identificationNumber),
    address: account.address,
    balance: rupeesFromPaise(balancePaise),
    isAdmin: account.isAdmin,
    isVerified: account.isVerified,
    authProvider: account.authProvider,
    pinSet: account.pinSet,
    createdAt: account.createdAt.toISOString(),
  };
}

export async function userRecordOf(account: AccountSummary, balances: BalanceReader): Promise<UserRecord> {
  return toUserRecord(account, await balances.ofAccount(account.id));
}

/**
 * Verify (activate) or suspend an account. An admin cannot suspend itself: it would lock
 * out the only person able to undo it. Returns the account after the change. Run it in the
 * transaction that also enqueues the "account verified" e-mail.
 */
export async function setVerified(
  db: Kysely<unknown>,
  input: {
    actorId: string;
    userId: string;
    isVerified: boolean;
    reason?: string | undefined;
    /** The admin confirmed the document check (identity/identification.ts); undefined: not asked. */
    documentChecked?: boolean | undefined;
  },
): Promise<{ account: AccountSummary; activated: boolean }> {
  if (input.userId === input.actorId && !input.isVerified) {
    throw new IdentityRejection('cannot_suspend_self', 'You cannot suspend your own account');
  }
  const before = await identityDb(db)
    .selectFrom('identity.users')
    .select(['is_verified', ...CHECKED_COLUMNS])
    .where('id', '=', input.userId)
    .forUpdate()
    .executeTakeFirst();
  if (!before) throw new IdentityRejection('user_not_found', 'User not found');
  const details = input.isVerified
    ? { wasVerified: before.is_verified, documentCheck: documentCheckRecord(before, input.documentChecked) }
    : { wasVerified: before.is_verified };
  await identityDb(db)
    .updateTable('identity.users')
    // Suspending also ends every session: a reactivated user signs in again rather than
    // getting back tokens that were out while the account was suspended.
    .set((eb) => ({
      is_verified: input.isVerified,
      updated_at: new Date(),
      ...(input.isVerified ? {} : { session_version: eb('session_version', '+', 1) }),
    }))
    .where('id', '=', input.userId)
    .execute();
  const account = await findAccount(db, input.userId);
  if (!account) throw new IdentityRejection('user_not_found', 'User not found');
  // The audit trail (audit.admin_actions, migrations/0001_baseline.ts), in the caller's transaction.
  await sql`insert into audit.admin_actions (actor_id, action, target, reason, details)
    values (${input.actorId}, ${input.isVerified ? 'activate' : 'suspend'}, ${input.userId}, ${input.reason ?? null}, ${JSON.stringify(details)}::jsonb)`.execute(
    db,
  );
  return { account, activated: input.isVerified && !before.is_verified };
}

/**
 * Ends every session of the user (sign-out on the server): tokens carry the session version,
 * so bumping it makes every token issued so far fail the per-request check. A stolen token
 * dies with the sign-out, on every device the user had signed in on.
 */
export async function endSessions(db: Kysely<unknown>, userId: string): Promise<void> {
  await identityDb(db)
    .updateTable('identity.users')
    .set((eb) => ({ session_version: eb('session_version', '+', 1), updated_at: new Date() }))
    .where('id', '=', userId)
    .execute();
}

/**
 * The columns of a transaction PIN as an account without one has them: what an account handed
 * to someone else (admin:create's promotion, a Google link) sets, so the earlier holder's PIN,
 * its verifier and its lock state end with it.
 */
export const NO_TRANSACTION_PIN = {
  pin_hash: null,
  pin_verifier: null,
  pin_verifier_key: null,
  failed_pin_attempts: 0,
  pin_locked_until: null,
  pin_reset_required: false,
} as const;
