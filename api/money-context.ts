/**
 * What the money routes need from the rest of the system, and the small helpers they
 * share: the command context of a request (actor, Idempotency-Key, request id), the active
 * receiver check, and read-your-writes waiting.
 */
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { CollectionAccount } from '../contracts/deposit-instructions.ts';
import { idempotencyKeySchema } from '../contracts/transactions.ts';
import type { CardProvider } from '../providers/card/index.ts';
import { findAccount, verifyTransactionPin, type AccountSummary, type Clock, type PinKeys } from '../identity/index.ts';
import type { CommandContext, Ledger } from '../ledger/index.ts';
import type { CheckpointWaiter, ProjectionName, ReadRouter } from '../projections/index.ts';
import type { RateLimitSettings } from './auth/rate-limit.ts';
import { ApiError } from './errors.ts';

export interface MoneyDependencies {
  db: Kysely<unknown>;
  /** The read tables: on a caught-up replica (READ_DATABASE_URL) or the primary. */
  reads: ReadRouter;
  /** Read-your-writes: resolves true once the projection has applied the checkpoint. */
  checkpoints: Pick<CheckpointWaiter, 'wait'>;
  ledger: Ledger;
  clock: Clock;
  card: { provider: CardProvider; webhookSecret: string | null };
  /** How long a read waits for its projection to reach the caller's checkpoint. */
  readYourWritesTimeoutMs: number;
  /** Per-IP limits; account lookups get their own, tighter one. */
  rateLimit: RateLimitSettings;
  /** An admin's settlement above this amount waits for a second admin. */
  approvalThresholdPaise: bigint;
  /** Keys the PIN verifiers. */
  pinKeys: PinKeys;
  /** Where bank-transfer and UPI deposits are paid (COLLECTION_* settings). */
  collection: CollectionAccount;
}

/**
 * The PIN check every money command makes first (identity/transaction-pin.ts); a payment
 * names its payee, which must exist and be active (checked in the same read, before the PIN).
 */
export function requirePin(
  deps: MoneyDependencies,
  userId: string,
  pin: string,
  payment: { payeeId?: string } = {},
): Promise<void> {
  return verifyTransactionPin({ db: deps.db, keys: deps.pinKeys, clock: deps.clock }, userId, pin, payment);
}

/** The ledger command context of an HTTP request: who, which retry key, which request. */
export function commandContext(request: FastifyRequest, actorId: string): CommandContext {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return { actorId, requestId: request.id };
  const key = idempotencyKeySchema.safeParse(Array.isArray(header) ? header[0] : header);
  if (!key.success) throw new ApiError('validation_failed', 'Idempotency-Key must be 1 to 200 visible characters');
  return { actorId, idempotencyKey: key.data, requestId: request.id };
}

/** A receiver of money must exist and be active (verified, not suspended). */
export async function requireActiveAccount(db: Kysely<unknown>, accountNumber: string): Promise<AccountSummary> {
  const account = await findAccount(db, accountNumber);
  if (!account || !account.isVerified) throw new ApiError('unknown_account', 'Account not found');
  return account;
}

/**
 * Read-your-writes: when the caller names the checkpoint of its last command, wait (bounded)
 * until the projection has applied it. A timeout still answers, with what is there.
 */
export async function awaitCheckpoint(
  deps: MoneyDependencies,
  projection: ProjectionName | 'all',
  checkpoint: string | undefined,
): Promise<boolean> {
  if (!checkpoint) return true;
  return deps.checkpoints.wait(projection, checkpoint, deps.readYourWritesTimeoutMs);
}

export function displayName(account: Pick<AccountSummary, 'firstName' | 'lastName'>): string {
  return `${account.firstName} ${account.lastName}`.trim();
}

/** The bank name the spec's clients show for our own accounts. */
export const WALLET_BANK_NAME = 'Rupee Wallet';
