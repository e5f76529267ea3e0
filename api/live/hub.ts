/**
 * The process's live updates hub: every open stream of this process, fed by the checkpoint
 * waiter (one LISTEN connection, direct to Postgres even behind PgBouncer). When every
 * projection has passed a new checkpoint, the hub reads what happened since the last one once
 * (./changes.ts) and writes each stream its events (./fan-out.ts), so a client that reads
 * after an event sees it in the read tables. Work is serialised on one chain: a stream that
 * resumes (`Last-Event-ID`) catches up between two advances and misses nothing.
 *
 * Also: a heartbeat comment per stream, at which the stream's session is re-checked (a
 * sign-out, password reset or suspension ends it), a stream whose token has expired is ended
 * (it is written nothing after the expiry either: ./stream.ts), and a stream whose client is
 * gone without its close being heard is dropped; for admins, while any admin stream is open,
 * replay progress and each recorded ledger verify run (both report to a table, not the log,
 * from whichever process ran them: read once a second here, so no client polls) and the projections' status every
 * few seconds (the Operations page's lag chart: a stalled projection advances nothing, so it
 * cannot be an advance's event); a cap of streams per user in this process, counting only
 * streams whose client is still there.
 */
import type { Kysely } from 'kysely';
import {
  PROJECTION_NAMES,
  compareCheckpoints,
  latestReplayRun,
  type Checkpoint,
  type CheckpointWaiter,
} from '../../projections/index.ts';
import { readProjectionsOverview } from '../../audit/projections.ts';
import { lastVerifyRun } from '../../audit/verify-runs.ts';
import { readBalancesOf, readChanges, readLowestCheckpoint, readNames, type LedgerChange } from './changes.ts';
import { eventsFor, planDeliveries } from './fan-out.ts';
import type { LiveStream } from './stream.ts';

const PAGE_SIZE = 1_000;
/** A resume further back than this many events is answered with `reset` (refetch all). */
const MAX_RESUME_EVENTS = 5_000;
/** The latest verify run's id is remembered beside the replays' runs under this name. */
const VERIFY_KEY = 'verify:latest';

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
  let head: Checkpoint | undefined;
  let unsubscribe: (() => void) | undefined;
  let chain: Promise<void> = Promise.resolve();
  let heartbeat: NodeJS.Timeout | undefined;
  let replayTimer: NodeJS.Timeout | undefined;
  let projectionsTimer: NodeJS.Timeout | undefined;
  const lastReplay = new Map<string, string>();
  let closed = false;

  const enqueue = (work: () => Promise<void>): void => {
    chain = chain.then(work).catch((error: unknown) => options.log.warn({ err: error }, 'live updates: read failed'));
  };

  const deliver = async (changes: readonly LedgerChange[], targets: readonly LiveStream[]): Promise<void> => {
    if (changes.length === 0 || targets.length === 0) return;
    const plan = planDeliveries(changes);
    const users = new Set(targets.map((stream) => stream.userId));
    const senders = new Set<string>();
    for (const userId of users)
      for (const planned of plan.byUser.get(userId) ?? [])
        if (planned.event === 'money-received') senders.add(planned.data.fromId);
    const [names, balances] = await Promise.all([
      readNames(db, [...senders]),
      readBalancesOf(
        db,
        [...plan.balances.keys()].filter((userId) => users.has(userId)),
      ),
    ]);
    for (const stream of targets) {
      const after = stream.cursor;
      if (!after) continue;
      for (const planned of eventsFor(plan, stream, after)) {
        const data =
          planned.event === 'money-received'
            ? { ...planned.data, fromName: names.get(planned.data.fromId) ?? planned.data.fromId }
            : planned.data;
        stream.send(planned.event, data, planned.checkpoint);
      }
      const moved = plan.balances.get(stream.userId);
      const balance = balances.get(stream.userId);
      if (moved && balance !== undefined && compareCheckpoints(moved, after) > 0)
        stream.send('balance', { balancePaise: balance.toString() }, moved);
    }
  };

  const readRange = async (from: Checkpoint, to: Checkpoint, targets: () => LiveStream[]): Promise<void> => {
    for (let cursor = from; ;) {
      const page = await readChanges(db, cursor, to, PAGE_SIZE);
      await deliver(page, targets());
      const last = page.at(-1);
      if (page.length < PAGE_SIZE || !last) return;
      cursor = last.checkpoint;
    }
  };

  const join = async (stream: LiveStream, now: Checkpoint): Promise<void> => {
    const resume = stream.resumeFrom;
    if (resume === 'reset') {
      stream.send('reset', {}, now);
      stream.cursor = now;
      return;
    }
    if (!resume || compareCheckpoints(resume, now) >= 0) {
      stream.cursor = resume ?? now;
      return;
    }
    const behind = await readChanges(db, resume, now, MAX_RESUME_EVENTS + 1);
    if (behind.length > MAX_RESUME_EVENTS) {
      stream.send('reset', {}, now);
    } else {
      stream.cursor = resume;
      await deliver(behind, [stream]);
    }
    stream.cursor = now;
  };

  const advance = async (to: Checkpoint): Promise<void> => {
    if (closed) return;
    if (head && compareCheckpoints(to, head) > 0) {
      await readRange(head, to, () => [...streams].filter((stream) => stream.cursor));
      for (const stream of streams) if (stream.cursor && compareCheckpoints(stream.cursor, to) < 0) stream.cursor = to;
    }
    if (!head || compareCheckpoints(to, head) > 0) head = to;
  };

  const drop = (stream: LiveStream): void => {
    stream.end();
    remove(stream);
  };

  const beat = async (): Promise<void> => {
    const now = Date.now();
    // A client gone without its close heard, a token expired: ended before anything is written.
    for (const stream of [...streams]) if (stream.gone() || stream.expired(now)) drop(stream);
    const users = new Map<string, Awaited<ReturnType<LiveHubOptions['sessionOf']>>>();
    for (const stream of streams) if (stream.cursor) stream.comment('heartbeat');
    for (const stream of [...streams]) {
      if (!users.has(stream.userId)) users.set(stream.userId, await options.sessionOf(stream.userId));
      const session = users.get(stream.userId);
      if (!session?.isVerified || session.sessionVersion !== stream.sessionVersion || stream.expired()) drop(stream);
    }
  };

  const pollReplays = async (): Promise<void> => {
    const admins = [...streams].filter((stream) => stream.isAdmin);
    if (admins.length === 0) return;
    for (const name of PROJECTION_NAMES) {
      const run = await latestReplayRun(db, name);
      const text = run ? JSON.stringify(run) : '';
      if (!run || lastReplay.get(name) === text) continue;
      lastReplay.set(name, text);
      for (const stream of admins) stream.send('replay', run);
    }
    const verify = await lastVerifyRun(db);
    if (verify && lastReplay.get(VERIFY_KEY) !== verify.id) {
      lastReplay.set(VERIFY_KEY, verify.id);
      for (const stream of admins) stream.send('verify', verify);
    }
  };

  const pushProjections = async (): Promise<void> => {
    const admins = [...streams].filter((stream) => stream.isAdmin && stream.cursor);
    if (admins.length === 0) return;
    const overview = await readProjectionsOverview(db);
    for (const stream of admins) stream.send('projections', overview);
  };

  const startTimers = (): void => {
    heartbeat ??= setInterval(() => enqueue(beat), options.heartbeatMs ?? 15_000);
    replayTimer ??= setInterval(() => enqueue(pollReplays), options.replayPollMs ?? 1_000);
    projectionsTimer ??= setInterval(() => enqueue(pushProjections), options.projectionsPushMs ?? 5_000);
    unsubscribe ??= options.feed.onAdvance((lowest) => enqueue(() => advance(lowest)));
  };
  const stopTimers = (): void => {
    clearInterval(heartbeat);
    clearInterval(replayTimer);
    clearInterval(projectionsTimer);
    heartbeat = replayTimer = projectionsTimer = undefined;
    unsubscribe?.();
    unsubscribe = undefined;
    // Unsubscribed, the head goes stale: the next first stream starts from a fresh one.
    head = undefined;
    lastReplay.clear();
  };

  const remove = (stream: LiveStream): void => {
    streams.delete(stream);
    if (streams.size === 0) enqueue(async () => (streams.size === 0 ? stopTimers() : undefined));
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
      startTimers();
      // The reply's head goes out with this first comment, once the stream has its place in
      // the order: a client that acts once the stream is open misses nothing after it.
      enqueue(async () => {
        if (!streams.has(stream)) return;
        try {
          head ??= await readLowestCheckpoint(db);
          await join(stream, head);
          stream.comment('connected');
        } catch (error) {
          // The client retries (with its Last-Event-ID) rather than wait on a stream never joined.
          streams.delete(stream);
          stream.end();
          throw error;
        }
      });
    },
    remove,
    async close() {
      closed = true;
      stopTimers();
      for (const stream of streams) stream.end();
      streams.clear();
      await chain;
    },
  };
}
