/**
 * How a command runs: replay check -> load -> decide -> append -> wake-up hook. Commands are
 * plain functions over an event store: reads through its Kysely executor, the one write
 * through its `append`. Standalone, a command needs no transaction of its own: its only
 * write is one append (atomic by itself; a stale load is caught by the expected-version
 * check), and concurrent commands' appends are committed together (group commit,
 * event-store/batch.ts). A command that writes twice (opening a wallet) opens its own
 * transaction with `inTransaction`. Inside a caller's transaction (`ledger.within`), the
 * caller's transaction is the executor and appends go straight to `ledger.append`. This
 * module adds the retry on a concurrent stream change, the hooks and the idempotency helpers.
 */
import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { appendToStream, type AppendRequest, type AppendResult, type IdempotencyClaim } from './event-store/append.ts';
import { encodeJson } from './event-store/codec.ts';
import type { LedgerTables } from './event-store/tables.ts';
import type { EventMetadata } from './events.ts';
import { isLedgerRejection, reject } from './rejections.ts';

export interface CommandContext {
  /** Who asked: a user id, an admin id, or a system actor such as `provider:card`. */
  actorId: string;
  idempotencyKey?: string | undefined;
  requestId?: string | undefined;
}

/** What a command runs on: the pool (each statement commits by itself) or a caller's transaction. */
export type LedgerDb = Kysely<LedgerTables>;
export type LedgerTransaction = Transaction<LedgerTables>;
/** Where a command reads (`db`) and appends (`append`: batched standalone, direct in a transaction). */
export interface EventStore {
  readonly db: LedgerDb;
  append(request: AppendRequest): Promise<AppendResult>;
}

/** Appends one by one through `ledger.append` on `db` (a caller's transaction, or unbatched). */
export function directStore(db: LedgerDb): EventStore {
  return { db, append: (request) => appendToStream(db, request) };
}

export type Command<Input, Result extends AppendResult> = (
  store: EventStore,
  input: Input,
  ctx: CommandContext,
) => Promise<Result>;

/** Runs inside a caller's transaction after a real append (`ledger.within`): takes effect if it commits. */
export type AfterAppend = (trx: LedgerTransaction, result: AppendResult) => Promise<void>;
/** Runs after a standalone command's append has committed (not for replays). Must not throw. */
export type AfterCommit = (result: AppendResult) => void;

/** A stream changed between load and append: reload and decide again, this many times at most. */
const MAX_ATTEMPTS = 3;

export function metadataFor(command: string, ctx: CommandContext): EventMetadata {
  return { command, actorId: ctx.actorId, idempotencyKey: ctx.idempotencyKey, requestId: ctx.requestId };
}

/**
 * The idempotency claim of a command. The fingerprint holds only what the client decided
 * (amount, parties, reference), never server-made ids, so a retry with the same key matches.
 */
export function idempotencyClaim(
  command: string,
  ctx: CommandContext,
  fingerprint: unknown,
): IdempotencyClaim | undefined {
  if (!ctx.idempotencyKey) return undefined;
  const requestHash = createHash('sha256')
    .update(`${command}\n${encodeJson(fingerprint)}`)
    .digest('hex');
  return { actorId: ctx.actorId, key: ctx.idempotencyKey, command, requestHash };
}

/** For commands that load state first: a key seen before returns its first result before any decision. */
export async function previousResult<Result extends AppendResult>(
  db: LedgerDb,
  claim: IdempotencyClaim | undefined,
): Promise<Result | undefined> {
  if (!claim) return undefined;
  const row = await db
    .selectFrom('ledger.idempotency_keys')
    // The record keeps what the events do not say; the SQL function adds the rest back.
    .select([
      sql<string>`encode(request_hash, 'hex')`.as('request_hash'),
      sql<unknown>`ledger.recorded_result(result)`.as('result'),
    ])
    // Found through idempotency_keys_by_digest, then matched on actor and key themselves.
    .where(
      sql`ledger.idempotency_digest(actor_id, key)`,
      '=',
      sql`ledger.idempotency_digest(${claim.actorId}, ${claim.key})`,
    )
    .where('actor_id', '=', claim.actorId)
    .where('key', '=', claim.key)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.request_hash !== claim.requestHash || row.result === null) {
    reject('idempotency_key_reused', 'This idempotency key was already used for a different request');
  }
  return { ...(row.result as Result), replayed: true };
}

/** Runs `work` in `db`'s transaction if it is one, else in a new transaction. */
export async function inTransaction<T>(db: LedgerDb, work: (trx: LedgerDb) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

export interface RunOptions {
  store: EventStore;
  afterAppend?: AfterAppend | undefined;
  afterCommit?: AfterCommit | undefined;
}

/** Runs one command on its own, retrying when its stream changed concurrently. */
export async function runCommand<Input, Result extends AppendResult>(
  options: RunOptions,
  command: Command<Input, Result>,
  input: Input,
  ctx: CommandContext,
): Promise<Result> {
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await command(options.store, input, ctx);
      if (!result.replayed) options.afterCommit?.(result);
      return result;
    } catch (error) {
      if (isLedgerRejection(error) && error.code === 'stream_conflict' && attempt < MAX_ATTEMPTS) continue;
      throw error;
    }
  }
}

/** Runs one command inside a transaction the caller owns (e.g. registration opening a wallet). */
export async function runWithin<Input, Result extends AppendResult>(
  trx: LedgerTransaction,
  afterAppend: AfterAppend | undefined,
  command: Command<Input, Result>,
  input: Input,
  ctx: CommandContext,
): Promise<Result> {
  const result = await command(directStore(trx), input, ctx);
  if (!result.replayed && afterAppend) await afterAppend(trx, result);
  return result;
}
