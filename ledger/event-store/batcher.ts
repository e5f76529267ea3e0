/**
 * The group-commit policy, apart from what is committed: callers' requests are gathered and
 * handed to `send` in batches. A request goes at once when fewer than `maxInFlight` batches
 * are on their way (no added latency when idle); otherwise it waits for the next batch,
 * which takes up to `maxBatchSize` of the waiting requests. Each caller is answered with its
 * own outcome when its batch's `send` returns. The ledger's appends use it
 * (event-store/batch.ts), and so does the benchmark's batched baseline, so both batch alike.
 */
export interface BatchingOptions {
  /** Requests per batch at most: bounds one batch's work and the rows it locks at once. */
  maxBatchSize: number;
  /** Batches on their way at once (each holds one database connection). */
  maxInFlight: number;
  /** Told the size of every batch sent (metrics). */
  onBatch?: ((size: number) => void) | undefined;
}

export const DEFAULT_BATCHING: BatchingOptions = { maxBatchSize: 64, maxInFlight: 2 };

export type Settled<Result> = { ok: true; value: Result } | { ok: false; error: unknown };

/** Sends one batch; answers one outcome per request, in order (a throw fails them all). */
export type SendBatch<Request, Result> = (requests: readonly Request[]) => Promise<readonly Settled<Result>[]>;

interface Waiting<Request, Result> {
  request: Request;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

export function createBatcher<Request, Result>(
  options: BatchingOptions,
  send: SendBatch<Request, Result>,
): (request: Request) => Promise<Result> {
  const queue: Waiting<Request, Result>[] = [];
  let inFlight = 0;

  const dispatch = async (batch: readonly Waiting<Request, Result>[]): Promise<void> => {
    try {
      const outcomes = await send(batch.map((waiting) => waiting.request));
      batch.forEach((waiting, index) => {
        const outcome = outcomes[index];
        if (!outcome) waiting.reject(new Error('the batch answered no outcome for a request'));
        else if (outcome.ok) waiting.resolve(outcome.value);
        else waiting.reject(outcome.error);
      });
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    }
  };

  const pump = (): void => {
    while (inFlight < options.maxInFlight && queue.length > 0) {
      const batch = queue.splice(0, options.maxBatchSize);
      inFlight += 1;
      options.onBatch?.(batch.length);
      void dispatch(batch).finally(() => {
        inFlight -= 1;
        pump();
      });
    }
  };

  return (request) =>
    new Promise<Result>((resolve, reject) => {
      queue.push({ request, resolve, reject });
      pump();
    });
}
