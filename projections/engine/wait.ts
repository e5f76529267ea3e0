/**
 * Read-your-writes: wait until a projection (or all of them) has applied the event a
 * command returned as its checkpoint token. LISTENs on the projectors' NOTIFY channel and
 * re-reads the checkpoints after LISTEN is in place and after each notification, so a
 * notification sent before we listened is never waited for. Bounded by a timeout. A LISTEN on a
 * pool connection hears nothing behind a transaction-mode pooler: the API process uses the
 * shared waiter (./waiter.ts) on LISTEN_DATABASE_URL; this one serves in-process tests.
 */
import type pg from 'pg';
import { compareCheckpoints, hasReached, parseCheckpoint, type Checkpoint } from './checkpoint.ts';
import type { ProjectionName } from './definition.ts';
import { CHECKPOINT_CHANNEL } from './projector.ts';
import { LEDGER_APPENDED_CHANNEL, REPLY_WAITS } from './wake-up.ts';

/** What a wait is for: one projection, several (each of them), or all of them. */
export type WaitTarget = ProjectionName | readonly ProjectionName[] | 'all';

/** A waiter wakes up at least this often even without notifications (a lost connection, say). */
const RECHECK_INTERVAL_MS = 250;
/**
 * A waiting reply tells a busy projector so at most this often: half the 100 ms it then keeps
 * the short spacing (worker-loop.ts), not once per check (a check follows every round).
 */
const HURRY_EVERY_MS = 50;

export async function readCheckpoints(client: pg.PoolClient | pg.Client): Promise<Map<string, Checkpoint>> {
  const { rows } = await client.query<{ projection: string; tx_id: string; position: string | bigint }>(
    'select projection, tx_id::text as tx_id, position::text as position from read.checkpoints',
  );
  return new Map(rows.map((row) => [row.projection, { txId: BigInt(row.tx_id), position: BigInt(row.position) }]));
}

/** The slowest of the named projections (all of them for 'all'); undefined when one has no row. */
function lowest(checkpoints: Map<string, Checkpoint>, projection: WaitTarget): Checkpoint | undefined {
  const names = projection === 'all' ? [...checkpoints.keys()] : [projection].flat();
  let min: Checkpoint | undefined;
  for (const name of names) {
    const checkpoint = checkpoints.get(name);
    if (!checkpoint) return undefined;
    if (!min || compareCheckpoints(checkpoint, min) < 0) min = checkpoint;
  }
  return min;
}

/**
 * Resolves true once the projection has reached `token` (`<tx_id>.<position>`), false when
 * `timeoutMs` passes first. Holds one pool connection while waiting.
 */
export async function waitForCheckpoint(
  pool: pg.Pool,
  projection: WaitTarget,
  token: string,
  timeoutMs: number,
): Promise<boolean> {
  const target = parseCheckpoint(token);
  const client = await pool.connect();
  let wake: (() => void) | undefined;
  const onNotification = (message: pg.Notification): void => {
    if (message.channel === CHECKPOINT_CHANNEL) wake?.();
  };
  client.on('notification', onNotification);
  try {
    await client.query(`listen ${CHECKPOINT_CHANNEL}`);
    const deadline = Date.now() + timeoutMs;
    let hurriedAt = -Infinity;
    for (;;) {
      const current = lowest(await readCheckpoints(client), projection);
      if (current && hasReached(current, target)) return true;
      const remainingMs = deadline - Date.now();
      if (remainingMs <= 0) return false;
      // A busy projector spaces its rounds widely unless told a reply waits (worker-loop.ts).
      if (Date.now() - hurriedAt >= HURRY_EVERY_MS) {
        hurriedAt = Date.now();
        await client.query('select pg_notify($1, $2)', [LEDGER_APPENDED_CHANNEL, REPLY_WAITS]);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(remainingMs, RECHECK_INTERVAL_MS));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  } finally {
    client.off('notification', onNotification);
    try {
      await client.query(`unlisten ${CHECKPOINT_CHANNEL}`);
      client.release();
    } catch (error) {
      client.release(error instanceof Error ? error : true);
    }
  }
}
