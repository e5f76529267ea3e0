/**
 * Group commit: concurrent appends are gathered and sent together as one call to
 * `ledger.append_batch` (migrations/0012): one transaction, one statement, one commit for
 * the lot, each command answered with its own outcome. A command goes at once when fewer
 * than `maxInFlight` batches are on their way (no added latency when idle); otherwise it
 * waits for the next batch, which takes up to `maxBatchSize` of the waiting commands. Each
 * caller is answered only after its batch has committed (the statement returns after
 * commit).
 *
 * A batch that fails as a whole (a unique violation against a concurrent batch, a deadlock
 * or serialization failure: nothing of it committed) is retried command by command through
 * `ledger.append`, each with its own outcome. An error that leaves the outcome unknown (the
 * connection dropped) is passed to every caller, as a single append's would be.
 */
import { sql } from 'kysely';
import type { LedgerDb } from '../handle-command.ts';
import { appendToStream, toRejection, toWireAppend, type AppendRequest, type AppendResult } from './append.ts';
import { encodeJson } from './codec.ts';

export interface BatchingOptions {
  /** Commands per batch at most: bounds the statement's work and the wallets it locks at once. */
  maxBatchSize: number;
  /** Batches on their way at once (each holds one pool connection). */
  maxInFlight: number;
  /** Told the size of every batch sent (metrics). */
  onBatch?: ((size: number) => void) | undefined;
}

export const DEFAULT_BATCHING: BatchingOptions = { maxBatchSize: 64, maxInFlight: 2 };

export interface AppendBatcher {
  append(request: AppendRequest): Promise<AppendResult>;
}

interface Waiting {
  request: AppendRequest;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; result: AppendResult } | { ok: false; code: string; message: string };

export function createAppendBatcher(db: LedgerDb, options: BatchingOptions = DEFAULT_BATCHING): AppendBatcher {
  const queue: Waiting[] = [];
  let inFlight = 0;

  const pump = (): void => {
    while (inFlight < options.maxInFlight && queue.length > 0) {
      const batch = queue.splice(0, options.maxBatchSize);
      inFlight += 1;
      options.onBatch?.(batch.length);
      void sendBatch(db, batch).finally(() => {
        inFlight -= 1;
        pump();
      });
    }
  };

  return {
    append: (request) =>
      new Promise<AppendResult>((resolve, reject) => {
        queue.push({ request, resolve, reject });
        pump();
      }),
  };
}

async function sendBatch(db: LedgerDb, batch: readonly Waiting[]): Promise<void> {
  let outcomes: Outcome[];
  try {
    const { rows } = await sql<{ outcomes: Outcome[] }>`select ledger.append_batch(${encodeJson(batch.map((waiting) => toWireAppend(waiting.request)))}::jsonb) as outcomes`.execute(db);
    outcomes = rows[0]?.outcomes ?? [];
  } catch (error) {
    if (failedWhole(error)) return appendOneByOne(db, batch);
    for (const waiting of batch) waiting.reject(error);
    return;
  }
  batch.forEach((waiting, index) => settle(waiting, outcomes[index]));
}

function settle(waiting: Waiting, outcome: Outcome | undefined): void {
  if (!outcome) return waiting.reject(new Error('ledger.append_batch returned no outcome for a command'));
  if (outcome.ok) return waiting.resolve(outcome.result);
  const error = Object.assign(new Error(outcome.message), { code: outcome.code });
  waiting.reject(toRejection(error, waiting.request.streamId) ?? error);
}

async function appendOneByOne(db: LedgerDb, batch: readonly Waiting[]): Promise<void> {
  await Promise.all(batch.map((waiting) => appendToStream(db, waiting.request).then(waiting.resolve, waiting.reject)));
}

/** Nothing of the batch committed, and each command may succeed on its own. */
function failedWhole(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === '40P01' || code === '40001';
}
