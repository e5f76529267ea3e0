/**
 * Group commit of appends: concurrent callers' appends go to `ledger.append_batch`
 * (ledger/sql/append-batch.sql) in batches (the policy: event-store/batcher.ts): one transaction, one
 * statement, one commit for the lot, each command answered with its own outcome after the
 * batch has committed (the statement returns after commit).
 *
 * A batch that fails as a whole (a unique violation against a concurrent batch, a deadlock
 * or serialization failure: nothing of it committed) is retried command by command through
 * `ledger.append`, each with its own outcome. An error that leaves the outcome unknown (the
 * connection dropped) is passed to every caller, as a single append's would be.
 */
import { sql } from 'kysely';
import type { LedgerDb } from '../handle-command.ts';
import { appendToStream, toRejection, toWireAppend, type AppendRequest, type AppendResult } from './append.ts';
import { createBatcher, DEFAULT_BATCHING, type BatchingOptions, type Settled } from './batcher.ts';
import { encodeJson } from './codec.ts';

export { DEFAULT_BATCHING, READ_BATCHING, type BatchingOptions } from './batcher.ts';

type WireOutcome = { ok: true; result: AppendResult } | { ok: false; code: string; message: string };

export function createAppendBatcher(
  db: LedgerDb,
  options: BatchingOptions = DEFAULT_BATCHING,
): { append(request: AppendRequest): Promise<AppendResult> } {
  return { append: createBatcher(options, (requests: readonly AppendRequest[]) => sendBatch(db, requests)) };
}

async function sendBatch(db: LedgerDb, requests: readonly AppendRequest[]): Promise<Settled<AppendResult>[]> {
  let outcomes: WireOutcome[];
  try {
    const { rows } = await sql<{
      outcomes: WireOutcome[];
    }>`select ledger.append_batch(${encodeJson(requests.map(toWireAppend))}::jsonb) as outcomes`.execute(db);
    outcomes = rows[0]?.outcomes ?? [];
  } catch (error) {
    if (failedWhole(error)) return appendOneByOne(db, requests);
    throw error;
  }
  return requests.map((request, index) => settled(request, outcomes[index]));
}

function settled(request: AppendRequest, outcome: WireOutcome | undefined): Settled<AppendResult> {
  if (!outcome) return { ok: false, error: new Error('ledger.append_batch returned no outcome for a command') };
  if (outcome.ok) return { ok: true, value: outcome.result };
  const error = Object.assign(new Error(outcome.message), { code: outcome.code });
  return { ok: false, error: toRejection(error, request.streamId) ?? error };
}

async function appendOneByOne(db: LedgerDb, requests: readonly AppendRequest[]): Promise<Settled<AppendResult>[]> {
  return Promise.all(
    requests.map((request) =>
      appendToStream(db, request).then(
        (value): Settled<AppendResult> => ({ ok: true, value }),
        (error: unknown): Settled<AppendResult> => ({ ok: false, error }),
      ),
    ),
  );
}

/** Nothing of the batch committed, and each command may succeed on its own. */
function failedWhole(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === '40P01' || code === '40001';
}
