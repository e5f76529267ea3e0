/**
 * Read-your-writes for a busy API: one LISTEN connection per process serves every waiting
 * request, instead of one pool connection per wait (./wait.ts). The latest checkpoint of each
 * projection is kept in memory: read from the table once the LISTEN is in place (on every
 * (re)connection), then moved by the NOTIFY payloads, and re-read while anyone waits (every
 * RECHECK_INTERVAL_MS), so a lost notification costs at most that delay. A dropped connection
 * is re-opened on the next wait.
 *
 * A wait does not query: once LISTEN is in place every later checkpoint arrives as a
 * notification, so what is known is at worst behind by notifications still on their way,
 * which the wait then receives. (Each wait used to re-read the table first: one more query,
 * on this one connection, per command reply.) While anyone waits, it tells the projectors so
 * (a REPLY_WAITS wake-up, at most one every HURRY_SPACING_MS from this process, on a second
 * connection), since a busy projector nobody waits for spaces its rounds widely.
 */
import pg from 'pg';
import { compareCheckpoints, hasReached, parseCheckpoint, type Checkpoint } from './checkpoint.ts';
import { CHECKPOINT_CHANNEL } from './projector.ts';
import { readCheckpoints, type WaitTarget } from './wait.ts';
import { coalesce, LEDGER_APPENDED_CHANNEL, REPLY_WAITS } from './wake-up.ts';
import { AWAITED_PROJECTIONS } from '../registry.ts';

const isAwaited = (projection: string): boolean => (AWAITED_PROJECTIONS as readonly string[]).includes(projection);

const RECHECK_INTERVAL_MS = 250;
/**
 * While anyone waits, the projectors are told so (a REPLY_WAITS wake-up) at most this often:
 * once per round of a busy projector hurried by it (worker-loop.ts) is all it needs.
 */
const HURRY_SPACING_MS = 10;
/** Waiting requests per process; beyond it a wait answers false at once (the read is served as is). */
const MAX_WAITERS = 10_000;

export interface CheckpointWaiter {
  /** True once `projection` (each of them; all of them) has reached `token`; false after `timeoutMs`. */
  wait(projection: WaitTarget, token: string, timeoutMs: number): Promise<boolean>;
  /**
   * Calls `listener` with the slowest checkpoint of the projections replies wait for
   * (AWAITED_PROJECTIONS: the live events tell of nothing the deferred ones hold) whenever it
   * moves forward (live updates, api/live/). Keeps the LISTEN connection open and re-checked
   * while subscribed.
   */
  onAdvance(listener: (lowest: Checkpoint) => void): () => void;
  close(): Promise<void>;
}

interface Waiter {
  projection: WaitTarget;
  target: Checkpoint;
  done(reached: boolean): void;
}

export function createCheckpointWaiter(options: { connectionString: string }): CheckpointWaiter {
  const known = createKnownCheckpoints();
  const waiters = new Set<Waiter>();
  let ticker: NodeJS.Timeout | undefined;
  let closed = false;
  const listeners = new Set<(lowest: Checkpoint) => void>();
  let announced: Checkpoint | undefined;

  const announce = (): void => {
    const lowest = known.lowest();
    if (!lowest || (announced && compareCheckpoints(lowest, announced) <= 0)) return;
    announced = lowest;
    for (const listener of listeners) listener(lowest);
  };
  const settle = (): void => {
    for (const waiter of waiters) if (known.reached(waiter)) waiter.done(true);
    // Still waiting after a round: the next one is asked to come soon as well.
    if (waiters.size > 0) hurry.request();
    announce();
    if (waiters.size === 0 && listeners.size === 0 && ticker) {
      clearInterval(ticker);
      ticker = undefined;
    }
  };
  const connection = openOnDemand(options.connectionString, {
    notified: (projection, checkpoint) => {
      known.learn(projection, checkpoint);
      settle();
    },
    // After LISTEN: whatever moves from here on is notified, so this read and the
    // notifications together miss nothing.
    listening: async (fresh) => {
      for (const [projection, checkpoint] of await readCheckpoints(fresh)) known.learn(projection, checkpoint);
      settle();
    },
  });
  const hurry = hurrySender(options.connectionString, () => closed);
  const refresh = async (): Promise<void> => {
    const client = await connection.open();
    for (const [projection, checkpoint] of await readCheckpoints(client)) known.learn(projection, checkpoint);
  };
  const tick = (): void => {
    refresh().then(settle, () => undefined);
  };

  return {
    async wait(projection, token, timeoutMs) {
      const target = parseCheckpoint(token);
      if (closed || waiters.size >= MAX_WAITERS) return false;
      // Checkpoints only move forward (a replay swaps in one at least as far), so what is
      // known answers the wait, or the notification that moves it past the target will.
      await connection.open();
      if (known.reached({ projection, target })) return true;
      const reached = addWaiter(waiters, { projection, target }, timeoutMs);
      hurry.request();
      ticker ??= setInterval(tick, RECHECK_INTERVAL_MS);
      return reached;
    },
    onAdvance(listener) {
      listeners.add(listener);
      if (announced) listener(announced);
      ticker ??= setInterval(tick, RECHECK_INTERVAL_MS);
      tick();
      return () => {
        listeners.delete(listener);
      };
    },
    async close() {
      closed = true;
      listeners.clear();
      for (const waiter of waiters) waiter.done(false);
      if (ticker) clearInterval(ticker);
      await hurry.close();
      await connection.close();
    },
  };
}

/**
 * A busy projector spaces its rounds widely while no reply waits (worker-loop.ts): a wait tells
 * it one does, coalesced, on a connection of its own. Not on the LISTEN connection: a NOTIFY
 * takes the database-wide notify lock at commit, behind the projectors' rounds committing
 * theirs, and a connection busy with a statement delivers no notifications meanwhile: sent on
 * it, the warm payment's p50 rose ~25 ms in quick B2 (decision 0027; the cause not profiled).
 */
function hurrySender(connectionString: string, closed: () => boolean): { request(): void; close(): Promise<void> } {
  const connection = reopenedOnUse(connectionString, 'wallet-reply-hurry', async () => undefined);
  const sender = coalesce(
    async () => {
      if (closed()) return;
      await (await connection.open()).query('select pg_notify($1, $2)', [LEDGER_APPENDED_CHANNEL, REPLY_WAITS]);
    },
    HURRY_SPACING_MS,
    // A lost hurry costs at most the long spacing; the connection is re-opened on the next use.
    () => undefined,
  );
  return {
    request: sender.request,
    close: async () => {
      await sender.flush();
      await connection.close();
    },
  };
}

/** Resolves true when the waiter is settled as reached, false after `timeoutMs`. */
function addWaiter(
  waiters: Set<Waiter>,
  wanted: Pick<Waiter, 'projection' | 'target'>,
  timeoutMs: number,
): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const waiter: Waiter = {
      ...wanted,
      done: (result) => {
        clearTimeout(timer);
        waiters.delete(waiter);
        resolve(result);
      },
    };
    const timer = setTimeout(() => waiter.done(false), timeoutMs);
    waiters.add(waiter);
  });
}

interface KnownCheckpoints {
  /** Keeps `checkpoint` if it is further than the one known for `projection`. */
  learn(projection: string, checkpoint: Checkpoint): void;
  reached(waiter: Pick<Waiter, 'projection' | 'target'>): boolean;
  /** The slowest of the projections replies wait for; undefined while none of them is known. */
  lowest(): Checkpoint | undefined;
}

/** The furthest checkpoint heard of each projection (from the table or a notification). */
function createKnownCheckpoints(): KnownCheckpoints {
  const known = new Map<string, Checkpoint>();
  return {
    learn(projection, checkpoint) {
      const current = known.get(projection);
      if (!current || compareCheckpoints(checkpoint, current) > 0) known.set(projection, checkpoint);
    },
    reached(waiter) {
      const names = waiter.projection === 'all' ? [...known.keys()] : [waiter.projection].flat();
      const checkpoints = names.map((name) => known.get(name));
      return (
        checkpoints.length > 0 &&
        checkpoints.every((checkpoint) => checkpoint !== undefined && hasReached(checkpoint, waiter.target))
      );
    },
    lowest() {
      let lowest: Checkpoint | undefined;
      for (const [projection, checkpoint] of known)
        if (isAwaited(projection) && (!lowest || compareCheckpoints(checkpoint, lowest) < 0)) lowest = checkpoint;
      return lowest;
    },
  };
}

interface OnDemandConnection {
  /** The connection, opened (and prepared) if it is not open. */
  open(): Promise<pg.Client>;
  close(): Promise<void>;
}

/**
 * The one LISTEN connection, opened on first use and re-opened on the next use after it
 * drops; `listening` runs on each fresh connection once LISTEN is in place.
 */
function openOnDemand(
  connectionString: string,
  handlers: {
    notified(projection: string, checkpoint: Checkpoint): void;
    listening(client: pg.Client): Promise<void>;
  },
): OnDemandConnection {
  return reopenedOnUse(connectionString, 'wallet-checkpoint-waiter', async (fresh) => {
    fresh.on('notification', (message) => {
      if (message.channel !== CHECKPOINT_CHANNEL || !message.payload) return;
      const { projection, checkpoint } = JSON.parse(message.payload) as { projection: string; checkpoint: string };
      handlers.notified(projection, parseCheckpoint(checkpoint));
    });
    await fresh.query(`listen ${CHECKPOINT_CHANNEL}`);
    await handlers.listening(fresh);
  });
}

/**
 * A connection opened on first use, forgotten when it errors or ends, and opened again on the
 * next use after that; `prepare` runs on each fresh one before anyone gets it. A failed open is
 * forgotten too, so the next use tries again.
 */
function reopenedOnUse(
  connectionString: string,
  applicationName: string,
  prepare: (fresh: pg.Client) => Promise<void>,
): OnDemandConnection {
  let client: Promise<pg.Client> | undefined;
  const connect = async (forget: () => void): Promise<pg.Client> => {
    const fresh = new pg.Client({ connectionString, application_name: applicationName });
    fresh.on('error', forget);
    fresh.on('end', forget);
    await fresh.connect();
    try {
      await prepare(fresh);
    } catch (error) {
      await fresh.end().catch(() => undefined);
      throw error;
    }
    return fresh;
  };
  return {
    open() {
      if (client) return client;
      // Only this attempt's own connection is forgotten: a later one may have replaced it.
      const forget = (): void => {
        if (client === attempt) client = undefined;
      };
      const attempt: Promise<pg.Client> = connect(forget).catch((error: unknown) => {
        forget();
        throw error;
      });
      client = attempt;
      return attempt;
    },
    async close() {
      const open = client;
      client = undefined;
      if (open) await (await open.catch(() => undefined))?.end();
    },
  };
}
