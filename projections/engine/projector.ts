/**
 * The projector: moves one projection forward by batches. Each batch is one transaction
 * that locks the projection's checkpoint row (SKIP LOCKED: if another worker holds it, this
 * one steps aside, so exactly one projector is active per projection), takes the next range
 * of events behind the snapshot xmin, applies it with the projection's SQL rules, advances
 * the checkpoint and NOTIFYs `projection_checkpoint`. Applying and advancing commit together, so a crash at any point
 * leaves either the whole batch or none of it: idempotent by construction.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import { hasEventsAfter, nextEventRange, type AnyTransaction } from './event-range.ts';
import { formatCheckpoint, type Checkpoint } from './checkpoint.ts';
import { applyRange, type Projection, type ProjectionName } from './definition.ts';
import { PROJECTIONS, projectionNamed } from '../registry.ts';

export const CHECKPOINT_CHANNEL = 'projection_checkpoint';
/** Events per batch: large enough to amortise round trips, small enough to keep locks short. */
export const DEFAULT_BATCH_SIZE = 500;
/** Batches per drain call before yielding to other work (a drain is re-triggered anyway). */
export const MAX_BATCHES_PER_DRAIN = 1_000;
const MAX_ERROR_LENGTH = 2_000;

export interface ProjectorOptions {
  batchSize?: number;
  /** Test hook: pause after applying, before committing (to kill a worker mid-batch). */
  pauseBeforeCommitMs?: number;
}

export type BatchOutcome = { status: 'busy' } | { status: 'done'; applied: number; checkpoint: Checkpoint };

export interface DrainReport {
  projection: ProjectionName;
  applied: number;
  batches: number;
  busy: boolean;
  checkpoint: Checkpoint | undefined;
}

/** Applies the next batch (up to `limit` events) to `schema` after `after`, within the caller's transaction. */
export async function projectNext(
  trx: AnyTransaction,
  projection: Projection,
  schema: string,
  after: Checkpoint,
  limit: number,
): Promise<{ applied: number; checkpoint: Checkpoint }> {
  const range = await nextEventRange(trx, after, limit);
  if (!range) return { applied: 0, checkpoint: after };
  await applyRange(trx, projection, schema, range);
  return { applied: range.events, checkpoint: range.to };
}

/** Locks the live checkpoint row; undefined when another projector holds it (skipLocked). */
export async function lockCheckpoint(
  trx: AnyTransaction,
  name: ProjectionName,
  mode: 'skip-locked' | 'wait',
): Promise<Checkpoint | undefined> {
  const lock = mode === 'skip-locked' ? sql`for update skip locked` : sql`for update`;
  const { rows } = await sql<{ tx_id: string; position: bigint }>`
    select tx_id::text as tx_id, position from read.checkpoints where projection = ${name} ${lock}`.execute(trx);
  const row = rows[0];
  return row ? { txId: BigInt(row.tx_id), position: row.position } : undefined;
}

export async function saveCheckpoint(
  trx: AnyTransaction,
  name: ProjectionName,
  checkpoint: Checkpoint,
  applied: number,
  mode: 'add' | 'set' = 'add',
): Promise<void> {
  const count = mode === 'add' ? sql`events_applied + ${applied}` : sql`${applied}::bigint`;
  await sql`
    update read.checkpoints
       set tx_id = ${checkpoint.txId.toString()}::xid8, position = ${checkpoint.position.toString()}::bigint,
           events_applied = ${count}, updated_at = now(), last_error = null, last_error_at = null
     where projection = ${name}`.execute(trx);
  // Delivered at commit, and only if it commits: waiters never see an uncommitted checkpoint.
  await sql`select pg_notify(${CHECKPOINT_CHANNEL}, ${JSON.stringify({ projection: name, checkpoint: formatCheckpoint(checkpoint) })})`.execute(
    trx,
  );
}

export async function runProjectionBatch(
  db: Kysely<unknown>,
  name: ProjectionName,
  options: ProjectorOptions = {},
): Promise<BatchOutcome> {
  const projection = projectionNamed(name);
  try {
    return await db.transaction().execute(async (trx): Promise<BatchOutcome> => {
      const current = await lockCheckpoint(trx, name, 'skip-locked');
      if (!current) return { status: 'busy' };
      const result = await projectNext(trx, projection, 'read', current, options.batchSize ?? DEFAULT_BATCH_SIZE);
      if (result.applied > 0) {
        if (options.pauseBeforeCommitMs) await sleep(options.pauseBeforeCommitMs);
        await saveCheckpoint(trx, name, result.checkpoint, result.applied);
      }
      return { status: 'done', ...result };
    });
  } catch (error) {
    await recordError(db, name, error);
    throw error;
  }
}

async function recordError(db: Kysely<unknown>, name: ProjectionName, error: unknown): Promise<void> {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR_LENGTH);
  try {
    await sql`update read.checkpoints set last_error = ${message}, last_error_at = now() where projection = ${name}`.execute(
      db,
    );
  } catch {
    // The database itself is failing: the caller sees the original error.
  }
}

/** Runs batches until the projection has caught up with what the xmin gate lets through. */
export async function drainProjection(
  db: Kysely<unknown>,
  name: ProjectionName,
  options: ProjectorOptions = {},
): Promise<DrainReport> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const report: DrainReport = { projection: name, applied: 0, batches: 0, busy: false, checkpoint: undefined };
  while (report.batches < MAX_BATCHES_PER_DRAIN) {
    const outcome = await runProjectionBatch(db, name, options);
    if (outcome.status === 'busy') return { ...report, busy: true };
    report.batches += 1;
    report.applied += outcome.applied;
    report.checkpoint = outcome.checkpoint;
    if (outcome.applied < batchSize) break;
  }
  return report;
}

export async function drainAll(db: Kysely<unknown>, options: ProjectorOptions = {}): Promise<DrainReport[]> {
  return Promise.all(PROJECTIONS.map((projection) => drainProjection(db, projection.name, options)));
}

/** True when some projection has committed events after its checkpoint (held back, or not yet read). */
export async function hasUnprojectedEvents(db: Kysely<unknown>, name?: ProjectionName): Promise<boolean> {
  const only = name ? sql`where projection = ${name}` : sql``;
  const { rows } = await sql<{
    tx_id: string;
    position: bigint;
  }>`select tx_id::text as tx_id, position from read.checkpoints ${only}`.execute(db);
  for (const row of rows) {
    if (await hasEventsAfter(db, { txId: BigInt(row.tx_id), position: row.position })) return true;
  }
  return false;
}
