/**
 * How a command runs: replay check -> load -> decide -> append -> wake-up hooks, all in one
 * database transaction. Commands are plain functions over a Kysely transaction; this module
 * adds the transaction, the retry on a concurrent stream change, and the idempotency helpers.
 */
import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { AppendResult, IdempotencyClaim } from './event-store/append.ts';
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

export type LedgerTransaction = Transaction<LedgerTables>;
export type Command<Input, Result extends AppendResult> = (trx: LedgerTransaction, input: Input, ctx: CommandContext) => Promise<Result>;

/** Runs in the command's transaction after a real append, e.g. to enqueue the projection wake-up job. */
export type AfterAppend = (trx: LedgerTransaction, result: AppendResult) => Promise<void>;

/** A stream changed between load and append: reload and decide again, this many times at most. */
const MAX_ATTEMPTS = 3;

export function metadataFor(command: string, ctx: CommandContext): EventMetadata {
  return { command, actorId: ctx.actorId, idempotencyKey: ctx.idempotencyKey, requestId: ctx.requestId };
}

/**
 * The idempotency claim of a command. The fingerprint holds only what the client decided
 * (amount, parties, reference), never server-made ids, so a retry with the same key matches.
 */
export function idempotencyClaim(command: string, ctx: CommandContext, fingerprint: unknown): IdempotencyClaim | undefined {
  if (!ctx.idempotencyKey) return undefined;
  const requestHash = createHash('sha256').update(`${command}\n${encodeJson(fingerprint)}`).digest('hex');
  return { actorId: ctx.actorId, key: ctx.idempotencyKey, command, requestHash };
}

/** For commands that load state first: a key seen before returns its first result before any decision. */
export async function previousResult<Result extends AppendResult>(trx: LedgerTransaction, claim: IdempotencyClaim | undefined): Promise<Result | undefined> {
  if (!claim) return undefined;
  const row = await trx
    .selectFrom('ledger.idempotency_keys')
    .select(['request_hash', 'result'])
    .where('actor_id', '=', claim.actorId)
    .where('key', '=', claim.key)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.request_hash !== claim.requestHash || row.result === null) {
    reject('idempotency_key_reused', 'This idempotency key was already used for a different request');
  }
  return { ...(row.result as Result), replayed: true };
}

export interface RunOptions {
  db: Kysely<LedgerTables>;
  afterAppend?: AfterAppend | undefined;
}

/** Runs one command in its own transaction, retrying when its stream changed concurrently. */
export async function runCommand<Input, Result extends AppendResult>(
  options: RunOptions,
  command: Command<Input, Result>,
  input: Input,
  ctx: CommandContext,
): Promise<Result> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await options.db.transaction().execute((trx) => runWithin(trx, options.afterAppend, command, input, ctx));
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
  const result = await command(trx, input, ctx);
  if (!result.replayed && afterAppend) await afterAppend(trx, result);
  return result;
}
