/**
 * The process's live updates hub: every open stream of this process, fed by the checkpoint
 * waiter (one LISTEN connection, direct to Postgres even behind PgBouncer). When every
 * projection replies wait for has passed a new checkpoint (the deferred ones feed no live
 * event), the hub reads what happened since the last one once
 * (./changes.ts) and writes each stream its events (./delivery.ts), so a client that reads
 * after an event sees it in the read tables. Work is serialised on one chain: a stream that
 * resumes (`Last-Event-ID`) catches up between two advances and misses nothing.
 *
 * Also: a heartbeat comment per stream, at which the stream's session is re-checked (a
 * sign-out, password reset or suspension ends it), a stream whose token has expired is ended
 * (it is written nothing after the expiry either: ./stream.ts), and a stream whose client is
 * gone without its close being heard is dropped; for admins, while any admin stream is open,
 * replay progress and each recorded ledger verify run (both report to a table, not the log,
 * from whichever process ran them: read once a second here, so no client polls) and the
 * projections' status every few seconds (./admin-pushes.ts; the Operations page's lag chart:
 * a stalled projection advances nothing, so it cannot be an advance's event); a cap of
 * streams per user in this process, counting only streams whose client is still there.
 */
import type { Kysely } from 'kysely';
import { compareCheckpoints, type Checkpoint, type CheckpointWaiter } from '../../projections/index.ts';
import { createAdminPushes } from './admin-pushes.ts';
import { readLowestCheckpoint } from './changes.ts';
import { deliverRange, join } from './delivery.ts';
import type { LiveStream } from './stream.ts';

export interface LiveHubOptions {
  db: Kysely<unknown>;
  feed: Pick<CheckpointWaiter, 'onAdvance'>;
  /** The session's current state, for the heartbeat's re-check; undefined: the user is gone. */
  sessionOf(userId: string): Promise<{ sessionVersion: number; isVerified: boolean } | undefined>;
  log: { warn(fields: object, message: string): void };
  maxStreamsPerUser?: number;
  heartbeatMs?: number;
  replayPollMs?: number;
  /** How often admins' streams get the projections' status (lag); 5 s by default. */
  projectionsPushMs?: number;
}

export interface LiveHub {
  /** False when the user already has the most streams allowed here. */
  canOpen(userId: string): boolean;
  add(stream: LiveStream): void;
  remove(stream: LiveStream): void;
  /** Ends every stream (server shutdown). */
  close(): Promise<void>;
}

export function createLiveHub(options: LiveHubOptions): LiveHub {
  const { db } = options;
  const maxStreams = options.maxStreamsPerUser ?? 5;
  const streams = new Set<LiveStream>();
  const admins = createAdminPushes(db);
  let head: Checkpoint | undefined;
  let chain: Promise<void> = Promise.resolve();
  let stopSchedule: (() => void) | undefined;
  let closed = false;

  const enqueue = (work: () => Promise<void>): void => {
    chain = chain.then(work).catch((error: unknown) => options.log.warn({ err: error }, 'live updates: read failed'));
  };

  const advance = async (to: Checkpoint): Promise<void> => {
    if (closed) return;
    if (head && compareCheckpoints(to, head) > 0) {
      await deliverRange(db, head, to, () => [...streams].filter((stream) => stream.cursor));
      for (const stream of streams) if (stream.cursor && compareCheckpoints(stream.cursor, to) < 0) stream.cursor = to;
    }
    if (!head || compareCheckpoints(to, head) > 0) head = to;
  };

  const remove = (stream: LiveStream): void => {
    streams.delete(stream);
    if (streams.size === 0) enqueue(async () => (streams.size === 0 ? stop() : undefined));
  };
  const drop = (stream: LiveStream): void => {
    stream.end();
    remove(stream);
  };

  const start = (): void => {
    stopSchedule ??= schedule(options, enqueue, {
      beat: () => checkSessions(streams, options.sessionOf, drop),
      pollRuns: () => admins.pollRuns(streams),
      pushProjections: () => admins.pushProjections(streams),
      advance,
    });
  };
  const stop = (): void => {
    stopSchedule?.();
    stopSchedule = undefined;
    // Unsubscribed, the head goes stale: the next first stream starts from a fresh one.
    head = undefined;
    admins.forget();
  };

  return {
    canOpen: (userId) =>
      !closed && [...streams].filter((stream) => stream.userId === userId && !stream.gone()).length < maxStreams,
    add(stream) {
      // A client already gone (it left while the request was being authorised) is not added:
      // nothing would ever remove it.
      if (stream.gone()) {
        stream.end();
        return;
      }
      streams.add(stream);
      start();
      enqueue(() => admit(db, streams, stream, async () => (head ??= await readLowestCheckpoint(db))));
    },
    remove,
    async close() {
      closed = true;
      stop();
      for (const stream of streams) stream.end();
      streams.clear();
      await chain;
    },
  };
}

/**
 * Joins a stream once it has its place in the order, then sends the head with its first
 * comment: a client that acts once the stream is open misses nothing after it.
 */
async function admit(
  db: Kysely<unknown>,
  streams: Set<LiveStream>,
  stream: LiveStream,
  currentHead: () => Promise<Checkpoint>,
): Promise<void> {
  if (!streams.has(stream)) return;
  try {
    await join(db, stream, await currentHead());
    stream.comment('connected');
  } catch (error) {
    // The client retries (with its Last-Event-ID) rather than wait on a stream never joined.
    streams.delete(stream);
    stream.end();
    throw error;
  }
}

interface ScheduledWork {
  beat(): Promise<void>;
  pollRuns(): Promise<void>;
  pushProjections(): Promise<void>;
  advance(lowest: Checkpoint): Promise<void>;
}

/** Starts the hub's timers and its subscription to the feed, all on the hub's chain; returns their stop. */
function schedule(
  options: LiveHubOptions,
  enqueue: (work: () => Promise<void>) => void,
  work: ScheduledWork,
): () => void {
  const heartbeat = setInterval(() => enqueue(work.beat), options.heartbeatMs ?? 15_000);
  const runsTimer = setInterval(() => enqueue(work.pollRuns), options.replayPollMs ?? 1_000);
  const projectionsTimer = setInterval(() => enqueue(work.pushProjections), options.projectionsPushMs ?? 5_000);
  const unsubscribe = options.feed.onAdvance((lowest) => enqueue(() => work.advance(lowest)));
  return () => {
    clearInterval(heartbeat);
    clearInterval(runsTimer);
    clearInterval(projectionsTimer);
    unsubscribe();
  };
}

/**
 * The heartbeat: a stream whose client is gone without its close heard, or whose token has
 * expired, is ended before anything is written; the others get a comment, and a stream whose
 * session has changed since it opened (sign-out, password reset, suspension) is ended.
 */
async function checkSessions(
  streams: Set<LiveStream>,
  sessionOf: LiveHubOptions['sessionOf'],
  drop: (stream: LiveStream) => void,
): Promise<void> {
  const now = Date.now();
  for (const stream of [...streams]) if (stream.gone() || stream.expired(now)) drop(stream);
  const users = new Map<string, Awaited<ReturnType<LiveHubOptions['sessionOf']>>>();
  for (const stream of streams) if (stream.cursor) stream.comment('heartbeat');
  for (const stream of [...streams]) {
    if (!users.has(stream.userId)) users.set(stream.userId, await sessionOf(stream.userId));
    const session = users.get(stream.userId);
    if (!session?.isVerified || session.sessionVersion !== stream.sessionVersion || stream.expired()) drop(stream);
  }
}
