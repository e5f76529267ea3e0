/**
 * The transaction PIN guard for money commands: PIN_NOT_SET when there is none, every wrong
 * PIN counted, and a lock that grows with the count instead of starting over: 5 wrong PINs
 * in a row lock money commands for 15 minutes, 10 for an hour, 15 until a PIN reset by
 * e-mail. A right PIN clears the count.
 *
 * The check costs microseconds: it compares against the peppered verifier
 * (identity/pin-verifier.ts) when one is stored. Only a PIN never seen in plain by the server
 * (a browser-hashed PIN from registration, or a verifier made with a rotated-out pepper) is
 * compared with bcrypt once, and the right one then gets its verifier.
 *
 * Fast path: no failures pending and a usable verifier -> one SELECT, one HMAC, no write.
 * Otherwise every check first claims one attempt (one short UPDATE: count + 1, only while
 * unlocked), then compares without holding anything, then settles: a right PIN clears the
 * count, a wrong one that reaches a stage locks. So parallel guesses are counted one by one
 * and cannot outrun the lockout, and nothing is held over a bcrypt compare (a held connection
 * starved the pool under load; a transaction held open over it held back every projection).
 * A crash between claim and settle leaves the attempt counted as wrong: the safe side.
 *
 * The fast path writes nothing, so it decides on the count it read. Within one process a
 * user's checks queue behind each other, so each sees the previous one's count; across N API
 * processes, at most N guesses can be compared on a clean count at the same moment before
 * the first wrong one is counted: a lock stage admits at most 5 + (N - 1) guesses.
 *
 * Call it with the pool (not inside the money command's transaction): the count of a wrong
 * try must be committed although the command then fails.
 *
 * A payment's payee can be checked in the same read (`payeeId`): it must exist and be active,
 * and a payment to nowhere is refused before any attempt is counted, as a separate lookup
 * before the check did - one Postgres round trip fewer per transfer. The first reads of
 * different users' simultaneous checks go as one statement (`readPinRow`).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import { createBatcher, READ_BATCHING, type Settled } from '../ledger/index.ts';
import { systemClock, type Clock } from './clock.ts';
import { matchesVerifier, pinVerifier, verifierUsable, type PinKeys } from './pin-verifier.ts';
import { IdentityRejection } from './rejections.ts';
import { hashPin, pinMatches } from './secrets.ts';
import { identityDb } from './users.ts';

/** After this many wrong PINs in a row, money commands lock for `lockMinutes` (null: until a PIN reset). */
export const PIN_LOCK_STAGES: readonly { afterWrong: number; lockMinutes: number | null }[] = [
  { afterWrong: 5, lockMinutes: 15 },
  { afterWrong: 10, lockMinutes: 60 },
  { afterWrong: 15, lockMinutes: null },
];
/** Wrong PINs before the first lock. */
export const MAX_PIN_ATTEMPTS = 5;
const LAST_STAGE = 15;

export const PIN_NOT_SET_MESSAGE = 'Please set your transaction PIN first in settings.';
const ESCALATION_NOTE =
  'After 10 wrong PINs in a row the lock lasts an hour; after 15, only a PIN reset by e-mail unlocks them.';
const RESET_REQUIRED_MESSAGE =
  'Too many wrong PIN attempts. Reset your transaction PIN by e-mail (Reset Transaction PIN) to unlock transfers and deposits.';

/** How long a check waits for other processes' checks of the same PIN to settle. */
const CLAIM_WAIT_MS = 2_000;
const CLAIM_RETRY_MS = 25;

/** The tail of each user's queue of PIN checks in this process. */
const checksInFlight = new Map<string, Promise<unknown>>();

export interface PinCheckDependencies {
  db: Kysely<unknown>;
  keys: PinKeys;
  clock?: Clock;
}

export interface PinCheckOptions {
  /**
   * The account a payment is to credit. It is read in the same statement as the PIN row (one
   * round trip fewer on every transfer) and must exist and be active, which is checked before
   * any attempt is counted: a payment to nowhere costs no PIN attempt (`unknown_account`).
   */
  payeeId?: string | undefined;
}

export async function verifyTransactionPin(
  deps: PinCheckDependencies,
  userId: string,
  pin: string,
  options: PinCheckOptions = {},
): Promise<void> {
  if (deps.db.isTransaction)
    throw new Error(
      'verifyTransactionPin needs the pool: a wrong try must be committed even when the caller rolls back',
    );
  const previous = checksInFlight.get(userId) ?? Promise.resolve();
  const check = previous.catch(() => undefined).then(() => checkPin(deps, userId, pin, options.payeeId));
  checksInFlight.set(userId, check);
  try {
    await check;
  } finally {
    if (checksInFlight.get(userId) === check) checksInFlight.delete(userId);
  }
}

async function checkPin(
  deps: PinCheckDependencies,
  userId: string,
  pin: string,
  payeeId: string | undefined,
): Promise<void> {
  const now = (deps.clock ?? systemClock).now();
  const row = await readPinRow(deps.db, { userId, payeeId });
  if (!row) throw new IdentityRejection('user_not_found', 'User not found');
  if (payeeId !== undefined && row.payee_active !== true)
    throw new IdentityRejection('unknown_account', 'Account not found');
  if (row.pin_hash === null) throw new IdentityRejection('PIN_NOT_SET', PIN_NOT_SET_MESSAGE);
  refuseWhileLocked(row, now);
  const stored = { ...row, pin_hash: row.pin_hash };
  if (
    row.failed_pin_attempts === 0 &&
    verifierUsable(deps.keys, stored) &&
    matchesVerifier(deps.keys, userId, stored, pin)
  )
    return;
  await checkCounted(deps, userId, pin, now);
}

/** What a check reads first: the user's PIN columns, and whether the payment's payee is active. */
interface PinRead {
  userId: string;
  payeeId: string | undefined;
}

interface PinRow {
  pin_hash: string | null;
  pin_verifier: Buffer | null;
  pin_verifier_key: string | null;
  failed_pin_attempts: number;
  pin_locked_until: Date | null;
  pin_reset_required: boolean;
  /** The payee's is_verified; null without a payee or for an unknown one. */
  payee_active: boolean | null;
}

const pinReaders = new WeakMap<Kysely<unknown>, (read: PinRead) => Promise<PinRow | undefined>>();

/**
 * A check's first read, gathered with the process's other checks' (the ledger's group-commit
 * policy, `createBatcher`): one statement for the checks of different users that came while a
 * read was on its way. A user's own checks still queue (checksInFlight), so each read starts
 * after the previous check of that user settled.
 */
function readPinRow(db: Kysely<unknown>, read: PinRead): Promise<PinRow | undefined> {
  let reader = pinReaders.get(db);
  if (!reader) {
    reader = createBatcher(READ_BATCHING, (reads: readonly PinRead[]) => readPinRows(db, reads));
    pinReaders.set(db, reader);
  }
  return reader(read);
}

async function readPinRows(db: Kysely<unknown>, reads: readonly PinRead[]): Promise<Settled<PinRow | undefined>[]> {
  const { rows } = await sql<PinRow & { ord: number }>`
    select r.ord::integer as ord, u.pin_hash, u.pin_verifier, u.pin_verifier_key, u.failed_pin_attempts,
           u.pin_locked_until, u.pin_reset_required, payee.is_verified as payee_active
      from unnest(${reads.map((read) => read.userId)}::text[], ${reads.map((read) => read.payeeId ?? null)}::text[])
           with ordinality as r(user_id, payee_id, ord)
      join identity.users u on u.id = r.user_id
      left join identity.users payee on payee.id = r.payee_id`.execute(db);
  const byTurn = new Map(rows.map((row) => [row.ord, row]));
  return reads.map((_read, index) => ({ ok: true, value: byTurn.get(index + 1) }));
}

/** The counted path: claim an attempt, compare (verifier or bcrypt), settle. */
async function checkCounted(deps: PinCheckDependencies, userId: string, pin: string, now: Date): Promise<void> {
  const claimed = await claimAttempt(deps.db, userId, now);
  const byVerifier = verifierUsable(deps.keys, claimed);
  const right = byVerifier ? matchesVerifier(deps.keys, userId, claimed, pin) : await pinMatches(claimed.pin_hash, pin);
  const users = identityDb(deps.db);
  if (right) {
    // A PIN checked by bcrypt gets its verifier now - unless the PIN changed meanwhile.
    const verifier = byVerifier
      ? {}
      : { pin_verifier: pinVerifier(deps.keys, userId, claimed.pin_hash, pin), pin_verifier_key: deps.keys.keyId };
    await users
      .updateTable('identity.users')
      .set({ failed_pin_attempts: 0, pin_locked_until: null, ...verifier })
      .where('id', '=', userId)
      .where('pin_hash', '=', claimed.pin_hash)
      .execute();
    return;
  }
  const stage = PIN_LOCK_STAGES.find((candidate) => candidate.afterWrong === claimed.failed_pin_attempts);
  if (stage?.lockMinutes === null) {
    await users.updateTable('identity.users').set({ pin_reset_required: true }).where('id', '=', userId).execute();
    throw new IdentityRejection('PIN_RESET_REQUIRED', RESET_REQUIRED_MESSAGE);
  }
  if (stage) {
    const until = new Date(now.getTime() + stage.lockMinutes * 60_000);
    await users.updateTable('identity.users').set({ pin_locked_until: until }).where('id', '=', userId).execute();
    throw locked(until.getTime() - now.getTime());
  }
  const next =
    PIN_LOCK_STAGES.find((candidate) => candidate.afterWrong > claimed.failed_pin_attempts) ?? PIN_LOCK_STAGES[0];
  const remaining = (next?.afterWrong ?? MAX_PIN_ATTEMPTS) - claimed.failed_pin_attempts;
  const consequence =
    next?.lockMinutes === null
      ? 'before only a PIN reset unlocks transfers'
      : `before a ${lockLength(next?.lockMinutes ?? 15)} lock`;
  throw new IdentityRejection(
    'invalid_pin',
    `Invalid transaction PIN. ${remaining} ${remaining === 1 ? 'attempt' : 'attempts'} remaining ${consequence}.`,
  );
}

interface ClaimedRow {
  pin_hash: string;
  pin_verifier: Buffer | null;
  pin_verifier_key: string | null;
  failed_pin_attempts: number;
}

/** Counts one attempt (as wrong until proven right) and returns what to compare with. */
async function claimAttempt(db: Kysely<unknown>, userId: string, now: Date): Promise<ClaimedRow> {
  const waitUntil = Date.now() + CLAIM_WAIT_MS;
  for (;;) {
    const claimed = await identityDb(db)
      .updateTable('identity.users')
      .set((eb) => ({ failed_pin_attempts: eb('failed_pin_attempts', '+', 1) }))
      .where('id', '=', userId)
      .where('pin_hash', 'is not', null)
      .where('pin_reset_required', '=', false)
      .where('failed_pin_attempts', '<', LAST_STAGE)
      .where((eb) => eb.or([eb('pin_locked_until', 'is', null), eb('pin_locked_until', '<=', now)]))
      .returning(['pin_hash', 'pin_verifier', 'pin_verifier_key', 'failed_pin_attempts'])
      .executeTakeFirst();
    if (claimed?.pin_hash) return { ...claimed, pin_hash: claimed.pin_hash };
    const row = await identityDb(db)
      .selectFrom('identity.users')
      .select(['pin_hash', 'pin_locked_until', 'pin_reset_required'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!row) throw new IdentityRejection('user_not_found', 'User not found');
    if (row.pin_hash === null) throw new IdentityRejection('PIN_NOT_SET', PIN_NOT_SET_MESSAGE);
    refuseWhileLocked(row, now);
    // Every attempt of this stage is claimed by checks still deciding (in other processes):
    // their verdict either clears the count or locks.
    if (Date.now() > waitUntil) throw locked(15 * 60_000);
    await sleep(CLAIM_RETRY_MS);
  }
}

function refuseWhileLocked(row: { pin_locked_until: Date | null; pin_reset_required: boolean }, now: Date): void {
  if (row.pin_reset_required) throw new IdentityRejection('PIN_RESET_REQUIRED', RESET_REQUIRED_MESSAGE);
  if (row.pin_locked_until && row.pin_locked_until.getTime() > now.getTime())
    throw locked(row.pin_locked_until.getTime() - now.getTime());
}

/**
 * Sets a new PIN the server sees in plain (a change or an e-mailed reset): the bcrypt hash at
 * rest, its verifier, and a clean slate (no count, no lock).
 */
export async function pinColumnsFor(
  keys: PinKeys,
  userId: string,
  pin: string,
): Promise<{ pin_hash: string; pin_verifier: Buffer; pin_verifier_key: string }> {
  const pinHash = await hashPin(pin);
  return { pin_hash: pinHash, pin_verifier: pinVerifier(keys, userId, pinHash, pin), pin_verifier_key: keys.keyId };
}

export const PIN_UNLOCKED = { failed_pin_attempts: 0, pin_locked_until: null, pin_reset_required: false } as const;

/** Changing the PIN needs the current one (checked, and counted, like a money command). */
export async function updateTransactionPin(
  deps: PinCheckDependencies,
  userId: string,
  currentPin: string,
  newPin: string,
): Promise<void> {
  await verifyTransactionPin(deps, userId, currentPin);
  const columns = await pinColumnsFor(deps.keys, userId, newPin);
  await identityDb(deps.db)
    .updateTable('identity.users')
    .set({ ...columns, updated_at: (deps.clock ?? systemClock).now() })
    .where('id', '=', userId)
    .execute();
}

function lockLength(minutes: number): string {
  return minutes % 60 === 0 ? `${minutes / 60}-hour` : `${minutes}-minute`;
}

function locked(remainingMs: number): IdentityRejection {
  const minutes = Math.max(1, Math.ceil(remainingMs / 60_000));
  return new IdentityRejection(
    'PIN_LOCKED',
    `Too many wrong PIN attempts. Transfers and deposits are locked for ${minutes} more ${minutes === 1 ? 'minute' : 'minutes'}. ${ESCALATION_NOTE}`,
    Math.ceil(remainingMs / 1000),
  );
}
