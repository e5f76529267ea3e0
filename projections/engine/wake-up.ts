/**
 * Waking the projection workers when the log grows: a Postgres NOTIFY on one channel, sent
 * after an append commits, and a LISTEN connection in each worker process.
 *
 * Why not a job per append: a pg-boss job inserted in every appending transaction was a large
 * share of a transfer's cost, and pg-boss polls (>= 0.5 s), which misses the 100 ms lag
 * target (docs/decisions/0014-notify-wake-ups.md). Why after commit and not inside the transaction: a NOTIFY in a transaction takes
 * a database-wide lock at commit, serialising every committing transfer. After commit, the
 * notifications are coalesced: at most one in flight per process, and at most one every
 * WAKE_UP_SPACING_MS, so a busy API sends about one per batch of commits, not one per command
 * (each NOTIFY is a statement and a transaction of its own). A NOTIFY lost to a crash between commit and send costs
 * latency, never an event: the workers also drain on an interval and on the catch-up job.
 * The same channel carries a second kind of wake-up, REPLY_WAITS, from the API's checkpoint
 * waiter while replies wait for the read side: it sets the pace of a busy projector's rounds.
 */
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { fallbackLogger, type Logger } from '../../platform/logger.ts';

export const LEDGER_APPENDED_CHANNEL = 'ledger_appended';
/**
 * The payload of a wake-up sent because a reply waits for the read side (waiter.ts), rather
 * than because the log grew: a busy projector then starts its next round after the short
 * spacing instead of the long one (worker-loop.ts).
 */
export const REPLY_WAITS = 'reply-waits';
/** The least time between two wake-ups from one process: well inside the 100 ms lag target. */
export const WAKE_UP_SPACING_MS = 5;
const RECONNECT_DELAY_MS = 1_000;

export interface WakeUpSender {
  /** After a commit: sends a NOTIFY, or joins the next one if one is in flight. Never throws. */
  afterCommit(): void;
  /** Inside a transaction: the NOTIFY is delivered when (and only if) it commits. */
  inTransaction(trx: Kysely<never>): Promise<void>;
  /** Waits for the NOTIFY in flight, if any (for a clean shutdown). */
  flush(): Promise<void>;
}

export function createWakeUpSender(db: Kysely<never>, log: Logger = fallbackLogger): WakeUpSender {
  const notify = sql`select pg_notify(${LEDGER_APPENDED_CHANNEL}, '')`;
  const sender = coalesce(
    () => notify.execute(db).then(() => undefined),
    WAKE_UP_SPACING_MS,
    (error) => log.warn({ err: error }, 'wake-up notify failed (the interval drain covers it)'),
  );
  return {
    afterCommit: sender.request,
    inTransaction: async (trx) => {
      await notify.execute(trx);
    },
    flush: sender.flush,
  };
}

/**
 * Coalesces requests for a notification: at most one `send` in flight and starts at least
 * `spacingMs` apart. A request made while one is in flight gets a send of its own after it,
 * since what it announces may have happened after that one went out. Never throws: a failed
 * send goes to `failed`.
 */
export function coalesce(
  send: () => Promise<void>,
  spacingMs: number,
  failed: (error: unknown) => void,
): { request(): void; flush(): Promise<void> } {
  let inFlight: Promise<void> | undefined;
  let pending = false;
  let lastSentAt = 0;
  const start = (): void => {
    pending = false;
    const wait = Math.max(0, lastSentAt + spacingMs - performance.now());
    inFlight = new Promise<void>((resolve) => setTimeout(resolve, wait))
      .then(() => {
        // Stamped when sent: every request made before this moment is covered by it.
        lastSentAt = performance.now();
        pending = false;
        return send();
      })
      .then(() => undefined, failed)
      .finally(() => {
        inFlight = undefined;
        if (pending) start();
      });
  };
  return {
    request: () => {
      if (inFlight) pending = true;
      else start();
    },
    flush: async () => {
      while (inFlight) await inFlight;
    },
  };
}

/**
 * Calls `onWake` on every NOTIFY (with whether it says a reply waits), and once after each
 * (re)connection for whatever committed while nobody listened. A lost connection is re-opened
 * every second until stopped.
 */
export async function listenForWakeUps(
  connectionString: string,
  onWake: (replyWaits: boolean) => void,
  log: Logger = fallbackLogger,
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let stopped = false;

  const reconnectLater = (): void => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, RECONNECT_DELAY_MS);
    retry.unref();
  };
  const connect = async (): Promise<void> => {
    const candidate = new pg.Client({ connectionString, application_name: 'projection-wake-listener' });
    let lost = false;
    const onLost = (error?: unknown): void => {
      if (lost) return;
      lost = true;
      if (client === candidate) client = undefined;
      if (!stopped) log.warn({ err: error }, 'wake-up listener lost its connection; reconnecting');
      candidate.end().catch(() => undefined);
      reconnectLater();
    };
    candidate.on('error', onLost);
    candidate.on('end', () => onLost());
    candidate.on('notification', (message) => onWake(message.payload === REPLY_WAITS));
    try {
      await candidate.connect();
      await candidate.query(`listen ${LEDGER_APPENDED_CHANNEL}`);
    } catch (error) {
      onLost(error);
      return;
    }
    if (stopped) {
      await candidate.end().catch(() => undefined);
      return;
    }
    client = candidate;
    onWake(false);
  };

  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}
