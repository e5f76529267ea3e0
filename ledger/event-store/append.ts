/**
 * Appending to the log: one call to the `ledger.append` SQL function (ledger/sql/append.sql), a
 * batch of one through `ledger.append_batch`: the idempotency key, the expected stream version,
 * wallet heads locked and updated with the funds check, events and postings inserted. Database
 * errors with the ledger's SQLSTATEs come back as rejections.
 */
import { sql, type Kysely } from 'kysely';
import type { EventMetadata, LedgerEvent } from '../events.ts';
import { LedgerRejection } from '../rejections.ts';
import { encodeJson } from './codec.ts';
import type { LedgerTables } from './tables.ts';

/** `-1` appends the first event of a new stream. */
export const NO_STREAM = -1;

export interface IdempotencyClaim {
  actorId: string;
  key: string;
  command: string;
  requestHash: string;
}

export interface AppendResult {
  streamId: string;
  streamVersion: number;
  positions: string[];
  /** `<tx_id>.<position>` of the last event: what a reader waits for (read-your-writes). */
  checkpoint: string;
  /** True when the idempotency key had already been used: nothing was appended this time. */
  replayed: boolean;
  /** Command-specific fields recorded with the result (e.g. the transfer id). */
  [field: string]: unknown;
}

export interface AppendRequest {
  streamId: string;
  expectedVersion: number;
  events: readonly LedgerEvent[];
  metadata: EventMetadata;
  idempotency?: IdempotencyClaim | undefined;
  result?: Record<string, unknown>;
}

/** An append as the SQL functions take it (`ledger.append_batch` takes an array of these). */
export function toWireAppend(request: AppendRequest) {
  return {
    stream: request.streamId,
    expected: request.expectedVersion,
    events: wireEvents(request),
    metadata: request.metadata,
    idempotency: wireIdempotency(request),
    result: request.result ?? {},
  };
}

function wireEvents(request: AppendRequest) {
  return request.events.map((event) => ({
    type: event.type,
    data: event.data,
    postings: 'postings' in event ? event.postings.map((p) => ({ account: p.accountId, amount: p.amountPaise })) : [],
  }));
}

function wireIdempotency(request: AppendRequest) {
  const claim = request.idempotency;
  return claim ? { actor: claim.actorId, key: claim.key, command: claim.command, hash: claim.requestHash } : null;
}

export async function appendToStream(db: Kysely<LedgerTables>, request: AppendRequest): Promise<AppendResult> {
  const events = wireEvents(request);
  const idempotency = wireIdempotency(request);
  try {
    const { rows } = await sql<{ result: AppendResult }>`
      select ledger.append(
        ${request.streamId}, ${request.expectedVersion}::int, ${encodeJson(events)}::jsonb,
        ${encodeJson(request.metadata)}::jsonb, ${idempotency ? encodeJson(idempotency) : null}::jsonb,
        ${encodeJson(request.result ?? {})}::jsonb
      ) as result`.execute(db);
    const row = rows[0];
    if (!row) throw new Error('ledger.append returned no row');
    return row.result;
  } catch (error) {
    throw toRejection(error, request.streamId) ?? error;
  }
}

/**
 * Maps the SQL function's SQLSTATEs to rejections; anything else is not a rejection. Two
 * unique violations are races the caller retries as stream_conflict: a stream version taken
 * meanwhile, and the same idempotency key committed meanwhile (the retry replays its result).
 */
export function toRejection(error: unknown, streamId: string): LedgerRejection | undefined {
  const { code, constraint } = (error ?? {}) as { code?: unknown; constraint?: unknown };
  const message = error instanceof Error ? error.message : String(error);
  if (
    code === '23505' &&
    (constraint === 'one_event_per_stream_version' || constraint === 'idempotency_keys_by_digest')
  ) {
    return new LedgerRejection('stream_conflict', `Stream ${streamId} changed concurrently`, { streamId });
  }
  switch (code) {
    case 'WL001':
      return new LedgerRejection('insufficient_funds', 'Insufficient balance', { account: accountIn(message) });
    case 'WL002':
      return new LedgerRejection('unknown_account', 'Account not found', { account: accountIn(message) });
    case 'WL003':
      return new LedgerRejection('stream_conflict', `Stream ${streamId} changed concurrently`, { streamId });
    case 'WL004':
      return new LedgerRejection(
        'idempotency_key_reused',
        'This idempotency key was already used for a different request',
      );
    default:
      return undefined;
  }
}

function accountIn(message: string): string {
  return message.split(' ').at(-1) ?? '';
}
