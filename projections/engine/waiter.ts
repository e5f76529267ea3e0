/**
 * Read-your-writes for a busy API: one LISTEN connection per process serves every waiting
 * request, instead of one pool connection per wait (./wait.ts). The latest checkpoint of each
 * projection is kept in memory from the NOTIFY payloads and re-read from the table while
 * anyone waits (every RECHECK_INTERVAL_MS), so a lost notification or a dropped connection
 * costs at most that delay. A dropped connection is re-opened on the next wait.
 */
import pg from 'pg';
import { compareCheckpoints, hasReached, parseCheckpoint, type Checkpoint } from './checkpoint.ts';
import type { ProjectionName } from './definition.ts';
import { CHECKPOINT_CHANNEL } from './projector.ts';
import { readCheckpoints } from './wait.ts';

const RECHECK_INTERVAL_MS = 250;
/** Waiting requests per process; beyond it a wait answers false at once (the read is served as is). */
const MAX_WAITERS = 10_000;

export interface CheckpointWaiter {
  /** True once `projection` (or all of them) has reached `token`; false after `timeoutMs`. */
  wait(projection: ProjectionName | 'all', token: string, timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

interface Waiter {
  projection: ProjectionName | 'all';
  target: Checkpoint;
  done(reached: boolean): void;
}

export function createCheckpointWaiter(options: { connectionString: string }): CheckpointWaiter {
  const known = new Map<string, Checkpoint>();
  const waiters = new Set<Waiter>();
  let client: Promise<pg.Client> | undefined;
  let ticker: NodeJS.Timeout | undefined;
  let closed = false;

  const learn = (projection: string, checkpoint: Checkpoint): void => {
    const current = known.get(projection);
    if (!current || compareCheckpoints(checkpoint, current) > 0) known.set(projection, checkpoint);
  };
  const reached = (waiter: Pick<Waiter, 'projection' | 'target'>): boolean => {
    const checkpoints =
      waiter.projection === 'all' ? [...known.values()] : [known.get(waiter.projection)].filter((c) => c !== undefined);
    return checkpoints.length > 0 && checkpoints.every((checkpoint) => hasReached(checkpoint, waiter.target));
  };
  const settle = (): void => {
    for (const waiter of waiters) if (reached(waiter)) waiter.done(true);
    if (waiters.size === 0 && ticker) {
      clearInterval(ticker);
      ticker = undefined;
    }
  };
  const connect = (): Promise<pg.Client> => {
    client ??= (async () => {
      const fresh = new pg.Client({
        connectionString: options.connectionString,
        application_name: 'wallet-checkpoint-waiter',
      });
      const drop = (): void => {
        client = undefined;
      };
      fresh.on('error', drop);
      fresh.on('end', drop);
      fresh.on('notification', (message) => {
        if (message.channel !== CHECKPOINT_CHANNEL || !message.payload) return;
        const { projection, checkpoint } = JSON.parse(message.payload) as { projection: string; checkpoint: string };
        learn(projection, parseCheckpoint(checkpoint));
        settle();
      });
      await fresh.connect();
      await fresh.query(`listen ${CHECKPOINT_CHANNEL}`);
      return fresh;
    })().catch((error: unknown) => {
      client = undefined;
      throw error;
    });
    return client;
  };
  const refresh = async (): Promise<void> => {
    const connection = await connect();
    for (const [projection, checkpoint] of await readCheckpoints(connection)) learn(projection, checkpoint);
  };
  const tick = (): void => {
    refresh().then(settle, () => undefined);
  };

  return {
    async wait(projection, token, timeoutMs) {
      const target = parseCheckpoint(token);
      if (closed || waiters.size >= MAX_WAITERS) return false;
      // Checkpoints only move forward (a replay swaps in one at least as far), so what a
      // notification already told us answers most waits without a query.
      if (client && reached({ projection, target })) return true;
      await refresh();
      if (reached({ projection, target })) return true;
      return new Promise<boolean>((resolve) => {
        const waiter: Waiter = {
          projection,
          target,
          done: (result) => {
            clearTimeout(timer);
            waiters.delete(waiter);
            resolve(result);
          },
        };
        const timer = setTimeout(() => waiter.done(false), timeoutMs);
        waiters.add(waiter);
        ticker ??= setInterval(tick, RECHECK_INTERVAL_MS);
      });
    },
    async close() {
      closed = true;
      for (const waiter of waiters) waiter.done(false);
      if (ticker) clearInterval(ticker);
      const open = client;
      client = undefined;
      if (open) await (await open.catch(() => undefined))?.end();
    },
  };
}
