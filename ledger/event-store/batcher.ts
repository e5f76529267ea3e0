/**
 * The group-commit policy, apart from what is committed: callers' requests are gathered and
 * handed to `send` in batches. A request goes at once when no batch is on its way (no added
 * latency when idle). Otherwise it waits until the end of the current event-loop turn, so
 * that everything that arrives in that turn goes together, and then for a free slot (at most
 * `maxInFlight` batches on their way); the waiting requests are shared out evenly over the
 * free slots, at most `maxBatchSize` a batch - unless they are fewer than half the smallest
 * batch on its way, in which case they wait for a batch to come back and go with its
 * callers. Each caller is answered with its own outcome when its batch's `send` returns.
 * The ledger's appends use it (event-store/batch.ts), and so does the benchmark's batched
 * baseline, so both batch alike.
 *
 * Why not "send whatever is waiting as soon as a slot is free": the callers of a finished
 * batch come back one by one, and the first of them found the slot free and went alone. Under
 * many concurrent clients that settled into one large batch beside a stream of batches of one
 * (most batches carried a single transfer), each paying a whole batch's fixed cost for one
 * transfer (bench/RESULTS.md keeps the figures). Waiting for the
 * end of the turn alone left one such state stable: the first request of a burst goes at once,
 * alone, the rest together, and each kept to its own slot.
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

/**
 * For reads and counts that lock no wallet (the API's session reads, rate-limit counts, PIN
 * rows): a larger batch costs one statement a little more and holds nothing the appends wait on.
 */
export const READ_BATCHING: BatchingOptions = { maxBatchSize: 256, maxInFlight: 2 };

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
  /** The sizes of the batches on their way. */
  const inFlight: number[] = [];

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
    while (inFlight.length < options.maxInFlight && queue.length > 0) {
      // A few requests beside a much larger batch on its way wait for it to come back, and
      // then go with its callers; sent alone they would keep going alone, every round.
      if (inFlight.length > 0 && queue.length * 2 < Math.min(...inFlight)) return;
      const freeSlots = options.maxInFlight - inFlight.length;
      const batch = queue.splice(0, Math.min(options.maxBatchSize, Math.ceil(queue.length / freeSlots)));
      inFlight.push(batch.length);
      options.onBatch?.(batch.length);
      void dispatch(batch).finally(() => {
        inFlight.splice(inFlight.indexOf(batch.length), 1);
        pumpAtEndOfTurn();
      });
    }
  };

  let pumpScheduled = false;
  const pumpAtEndOfTurn = (): void => {
    if (pumpScheduled) return;
    pumpScheduled = true;
    setImmediate(() => {
      pumpScheduled = false;
      pump();
    });
  };

  return (request) =>
    new Promise<Result>((resolve, reject) => {
      queue.push({ request, resolve, reject });
      if (inFlight.length === 0 && !pumpScheduled) pump();
      else pumpAtEndOfTurn();
    });
}
