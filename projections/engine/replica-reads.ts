/**
 * Reads of the read tables on streaming replicas (READ_DATABASE_URL), as consistent as on the
 * primary. A reply to a command leaves only once the primary's projections have applied it
 * (api/read-after-reply.ts), so whatever a client must see is covered by the primary's
 * checkpoint of the projection at the moment its read starts. The read takes that checkpoint
 * (one key lookup on the primary), then runs on a replica whose replicated `read.checkpoints`
 * row has reached it - the row commits with the projection's tables, so the replica then holds
 * at least what the primary showed. A replica behind polls (a standby gets no NOTIFY) until
 * `maxWaitMs`; past it, or when the replica fails, the read runs on the primary instead.
 * A replica that failed is left alone for RETRY_AFTER_MS, so a dead one costs one attempt.
 *
 * A projection that command replies do not wait for (api/read-after-reply.ts says which) is
 * first caught up: a read of it waits (bounded) until it has reached the furthest projection's
 * checkpoint on the primary at the read's start - every reply sent before the read had waited
 * for some projection to reach its command, so that one is at least as far.
 */
import type { Kysely } from 'kysely';
import { compareCheckpoints, formatCheckpoint, hasReached, type Checkpoint } from './checkpoint.ts';
import type { ProjectionName } from './definition.ts';
import { readViews, type CheckpointTables, type ReadViews } from '../tables.ts';

/** How often a read waiting for a replica asks it again. */
const POLL_INTERVAL_MS = 10;
/** How long a replica that failed is skipped. */
const RETRY_AFTER_MS = 1_000;

/** Where a read was served: a replica, or the primary because replicas lagged past the bound or failed. */
export type ReplicaReadOutcome = 'replica' | 'primary_lagging' | 'primary_unavailable';

export interface ReplicaReadObserver {
  /** `replica` is the replica's index in READ_DATABASE_URL; `error` is why it was not used. */
  served(outcome: ReplicaReadOutcome, detail: { waitedMs: number; replica?: number; error?: unknown }): void;
}

export interface ReadRouter {
  /**
   * Runs `query` where it sees at least what the primary shows of `projection` now: on a
   * caught-up replica, else on the primary. Without replicas, on the primary directly.
   */
  read<Result>(projection: ProjectionName, query: (reads: ReadViews) => Promise<Result>): Promise<Result>;
  /** For a read that goes to the primary on its own: the catch-up `read` does first (nothing for a projection replies wait for). */
  catchUp(projection: ProjectionName): Promise<void>;
}

/** Projections replies do not wait for, and how a read waits for one to reach a checkpoint. */
export interface CatchUpOptions {
  projections: readonly ProjectionName[];
  /** Resolves once `projection` has reached `token` (or its bound passed: the read is then served as it is). */
  wait(projection: ProjectionName, token: string): Promise<unknown>;
}

export interface ReadRouterOptions {
  primary: Kysely<unknown>;
  replicas: readonly Kysely<unknown>[];
  /** How long a read waits for a lagging replica before it goes to the primary. */
  maxWaitMs: number;
  observer?: ReplicaReadObserver | undefined;
  catchUp?: CatchUpOptions | undefined;
}

interface Replica {
  index: number;
  db: ReadViews;
  skipUntil: number;
}

export function createReadRouter(options: ReadRouterOptions): ReadRouter {
  const primary = readViews(options.primary);
  const catchUp = async (projection: ProjectionName): Promise<void> => {
    if (!options.catchUp?.projections.includes(projection)) return;
    const leader = await furthestCheckpoint(primary);
    if (leader) await options.catchUp.wait(projection, formatCheckpoint(leader));
  };
  if (options.replicas.length === 0)
    return {
      read: async (projection, query) => {
        await catchUp(projection);
        return query(primary);
      },
      catchUp,
    };
  const replicas: Replica[] = options.replicas.map((db, index) => ({
    index,
    db: readViews(db),
    skipUntil: 0,
  }));
  let turn = 0;
  const nextReplica = (): Replica | undefined => {
    const now = Date.now();
    for (let tried = 0; tried < replicas.length; tried++) {
      const replica = replicas[turn++ % replicas.length];
      if (replica && replica.skipUntil <= now) return replica;
    }
    return undefined;
  };
  const served = (outcome: ReplicaReadOutcome, started: number, detail: { replica?: number; error?: unknown } = {}) =>
    options.observer?.served(outcome, { waitedMs: performance.now() - started, ...detail });

  return {
    catchUp,
    async read(projection, query) {
      await catchUp(projection);
      const started = performance.now();
      const deadline = Date.now() + options.maxWaitMs;
      const replica = nextReplica();
      if (!replica) {
        served('primary_unavailable', started);
        return query(primary);
      }
      // The first look at the replica goes with the primary's lookup: both happen after the
      // read began, so a replica already there costs no extra round trip.
      const [target, first] = await Promise.all([
        checkpointOf(primary, projection),
        checkpointOf(replica.db, projection).then(
          (checkpoint) => ({ checkpoint }),
          (error: unknown) => ({ error }),
        ),
      ]);
      try {
        if ('error' in first) throw first.error;
        if (await caughtUp(replica.db, projection, { target, current: first.checkpoint, deadline })) {
          const result = await query(replica.db);
          served('replica', started, { replica: replica.index });
          return result;
        }
      } catch (error) {
        replica.skipUntil = Date.now() + RETRY_AFTER_MS;
        served('primary_unavailable', started, { replica: replica.index, error });
        return query(primary);
      }
      served('primary_lagging', started, { replica: replica.index });
      return query(primary);
    },
  };
}

/** True once the replica's checkpoint of `projection` has reached `target`; false past `deadline`. */
async function caughtUp(
  replica: Kysely<CheckpointTables>,
  projection: ProjectionName,
  wait: { target: Checkpoint | undefined; current: Checkpoint | undefined; deadline: number },
): Promise<boolean> {
  // A projection the primary has no row for yet: nothing to wait for.
  if (!wait.target) return true;
  for (let current = wait.current; ; current = await checkpointOf(replica, projection)) {
    if (current && hasReached(current, wait.target)) return true;
    const remainingMs = wait.deadline - Date.now();
    if (remainingMs <= 0) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(remainingMs, POLL_INTERVAL_MS)));
  }
}

async function checkpointOf(db: Kysely<CheckpointTables>, projection: ProjectionName): Promise<Checkpoint | undefined> {
  const row = await db
    .selectFrom('read.checkpoints')
    .select(['tx_id', 'position'])
    .where('projection', '=', projection)
    .executeTakeFirst();
  return row ? { txId: BigInt(row.tx_id), position: row.position } : undefined;
}

/** The furthest of the projections' checkpoints (one read of their rows). */
async function furthestCheckpoint(db: Kysely<CheckpointTables>): Promise<Checkpoint | undefined> {
  const rows = await db.selectFrom('read.checkpoints').select(['tx_id', 'position']).execute();
  let furthest: Checkpoint | undefined;
  for (const row of rows) {
    const checkpoint = { txId: BigInt(row.tx_id), position: row.position };
    if (!furthest || compareCheckpoints(checkpoint, furthest) > 0) furthest = checkpoint;
  }
  return furthest;
}
