/**
 * The projector: moves one projection forward by batches. Each batch is one transaction
 * (one call of `projector.run_batch`, projections/engine/run-batch.sql) that locks the projection's checkpoint
 * row (SKIP LOCKED: if another worker holds it, this one steps aside, so exactly one projector
 * is active per projection), takes the next range of events behind the snapshot xmin, applies
 * it with the projection's SQL rules, advances the checkpoint and NOTIFYs
 * `projection_checkpoint`; replay (./replay.ts) uses the same steps from Node. Applying and
 * advancing commit together, so a crash at any point leaves either the whole batch or none of
 * it: idempotent by construction. The workers run every projection's batch over one range in
 * one transaction instead, a round (`projector.run_round`, drainRounds), and fall back to the
 * batches of each when a round fails.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely, type QueryResult, type RawBuilder } from 'kysely';
import { hasEventsAfter, nextEventRange, type AnyTransaction } from './event-range.ts';
import { compareCheckpoints, type Checkpoint } from './checkpoint.ts';
import { applyRange, type Projection, type ProjectionName } from './definition.ts';
import { PROJECTIONS, projectionNamed } from '../registry.ts';

/** The channel `projector.save_checkpoint` (projections/engine/run-batch.sql) notifies on. */
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
  /**
   * Who does the projections' work after the rounds (`afterRounds`): the drain, before it
   * returns (the default), or its caller (the workers do it beside their rounds).
   */
  afterRounds?: 'drain' | 'caller';
}

export type BatchOutcome =
  | { status: 'busy' }
  /** `more`: committed events remain after `checkpoint` (beyond this batch, or held back by the gate). */
  | { status: 'done'; applied: number; checkpoint: Checkpoint; more: boolean };

export interface DrainReport {
  projection: ProjectionName;
  applied: number;
  batches: number;
  busy: boolean;
  checkpoint: Checkpoint | undefined;
  /** Committed events remain after the checkpoint (held back by the xmin gate, or past the batch limit). */
  more: boolean;
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
  // projector.save_checkpoint (projections/engine/run-batch.sql) also NOTIFYs, delivered at commit and only if
  // it commits: waiters never see an uncommitted checkpoint.
  await sql`select projector.save_checkpoint(array[${name}]::text[], ${checkpoint.txId.toString()}::xid8,
    ${checkpoint.position.toString()}::bigint, ${applied}::bigint, ${mode === 'add'})`.execute(trx);
}

/**
 * One live batch: `projector.run_batch` (projections/engine/run-batch.sql) locks the checkpoint row (SKIP
 * LOCKED), applies the next range behind the xmin gate with the projection's rule, saves the
 * checkpoint and NOTIFYs, in one round trip and one transaction. With the test hook it runs in
 * an explicit transaction so the pause falls between applying and committing.
 */
export async function runProjectionBatch(
  db: Kysely<unknown>,
  name: ProjectionName,
  options: ProjectorOptions = {},
): Promise<BatchOutcome> {
  projectionNamed(name); // throws for a name that is not a projection
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const call = sql<{ busy: boolean; applied: number; tx_id: string | null; position: bigint | null; more: boolean }>`
    select busy, applied, tx_id::text as tx_id, position, more from projector.run_batch(${name}, ${batchSize}::integer)`;
  try {
    const { rows } = await executeLive(db, call, options);
    const row = rows[0];
    if (!row || row.busy || row.tx_id === null || row.position === null) return { status: 'busy' };
    return {
      status: 'done',
      applied: row.applied,
      checkpoint: { txId: BigInt(row.tx_id), position: row.position },
      more: row.more,
    };
  } catch (error) {
    await recordError(db, name, error);
    throw error;
  }
}

/** What one round did (runProjectionRound): each projection it held, and whether events wait after the earliest. */
export type RoundOutcome =
  | { status: 'busy' }
  | {
      status: 'done';
      /** Events of the round's range (0 when none was waiting), applied by every projection that was at its start. */
      applied: number;
      projections: { name: ProjectionName; applied: number; checkpoint: Checkpoint }[];
      more: boolean;
    };

/**
 * One live round (`projector.run_round`, projections/engine/run-batch.sql): the projections'
 * batches over one range, in one round trip and one transaction, for every named projection
 * whose checkpoint row no other worker holds. 'busy' when another holds them all. With the test
 * hook it runs in an explicit transaction so the pause falls between applying and committing.
 */
export async function runProjectionRound(
  db: Kysely<unknown>,
  names: readonly ProjectionName[],
  options: ProjectorOptions = {},
): Promise<RoundOutcome> {
  for (const name of names) projectionNamed(name); // throws for a name that is not a projection
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const call = sql<{ projection: ProjectionName; applied: number; tx_id: string; position: bigint; more: boolean }>`
    select projection, applied, tx_id::text as tx_id, position, more
      from projector.run_round(${sql.val([...names])}::text[], ${batchSize}::integer)`;
  const { rows } = await executeLive(db, call, options);
  if (rows.length === 0) return { status: 'busy' };
  return {
    status: 'done',
    applied: Math.max(...rows.map((row) => row.applied)),
    projections: rows.map((row) => ({
      name: row.projection,
      applied: row.applied,
      checkpoint: { txId: BigInt(row.tx_id), position: row.position },
    })),
    more: rows.some((row) => row.more),
  };
}

/**
 * A live call in its own implicit transaction; with the test hook, in an explicit one, so the
 * pause falls between applying and committing (a worker killed then leaves nothing applied).
 */
async function executeLive<Row>(
  db: Kysely<unknown>,
  call: RawBuilder<Row>,
  options: ProjectorOptions,
): Promise<QueryResult<Row>> {
  const pause = options.pauseBeforeCommitMs;
  if (!pause) return call.execute(db);
  return db.transaction().execute(async (trx) => {
    const result = await call.execute(trx);
    await sleep(pause);
    return result;
  });
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
  const report: DrainReport = {
    projection: name,
    applied: 0,
    batches: 0,
    busy: false,
    checkpoint: undefined,
    more: false,
  };
  while (report.batches < MAX_BATCHES_PER_DRAIN) {
    const outcome = await runProjectionBatch(db, name, options);
    if (outcome.status === 'busy') return { ...report, busy: true };
    report.batches += 1;
    report.applied += outcome.applied;
    report.checkpoint = outcome.checkpoint;
    report.more = outcome.more;
    if (outcome.applied < batchSize) break;
  }
  if (options.afterRounds !== 'caller') await runAfterRounds(db, [name]);
  return report;
}

/**
 * Runs rounds of the named projections until they have caught up with what the xmin gate lets
 * through. A round that fails (one projection's rule, most likely) is followed by each
 * projection's own drain, so the others still move and the failing one records its error
 * (read.checkpoints.last_error); the first error is then thrown.
 */
export async function drainRounds(
  db: Kysely<unknown>,
  names: readonly ProjectionName[],
  options: ProjectorOptions = {},
): Promise<DrainReport[]> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const reports = new Map<ProjectionName, DrainReport>(
    names.map((name) => [
      name,
      { projection: name, applied: 0, batches: 0, busy: true, checkpoint: undefined, more: false },
    ]),
  );
  try {
    for (let rounds = 0; rounds < MAX_BATCHES_PER_DRAIN; rounds++) {
      const outcome = await runProjectionRound(db, names, options);
      if (outcome.status === 'busy') break;
      for (const moved of outcome.projections) {
        const report = reports.get(moved.name);
        if (!report) continue;
        report.busy = false;
        report.batches += moved.applied > 0 ? 1 : 0;
        report.applied += moved.applied;
        report.checkpoint = moved.checkpoint;
        report.more = outcome.more;
      }
      // Round again while the range was full, or while some projection is still behind others.
      if (outcome.applied === 0) break;
      if (outcome.applied < batchSize && inStep(outcome.projections.map((moved) => moved.checkpoint))) break;
    }
  } catch (roundError) {
    const drained = await Promise.allSettled(names.map((name) => drainProjection(db, name, options)));
    const failed = drained.find((result) => result.status === 'rejected');
    throw failed ? failed.reason : roundError;
  }
  if (options.afterRounds !== 'caller') await runAfterRounds(db, names);
  return [...reports.values()];
}

/**
 * Units (history: rows keyed) an after-rounds call does at most, in one transaction: ~0.5 ms a
 * history row with its search keys, so its locks are held tens of milliseconds.
 */
const AFTER_ROUNDS_LIMIT = 100;
/** Calls per run at most: what is left waits for the next drain. */
const AFTER_ROUNDS_CALLS = 50;

/**
 * Each named projection's work after the rounds (`afterRounds`), one transaction a call, until
 * a call finds none left. A drain does it before it returns; the workers, beside their rounds
 * (worker-loop.ts), since no reply waits for it.
 */
export async function runAfterRounds(db: Kysely<unknown>, names: readonly ProjectionName[]): Promise<void> {
  for (const name of names) {
    const after = projectionNamed(name).afterRounds;
    if (!after) continue;
    for (let calls = 0; calls < AFTER_ROUNDS_CALLS; calls++) {
      const { rows } = await sql<{ done: number }>`
        select ${sql.id('projector', after)}(${AFTER_ROUNDS_LIMIT}::integer) as done`.execute(db);
      if ((rows[0]?.done ?? 0) === 0) break;
    }
  }
}

function inStep(checkpoints: readonly Checkpoint[]): boolean {
  const first = checkpoints[0];
  return !first || checkpoints.every((checkpoint) => compareCheckpoints(checkpoint, first) === 0);
}

/** Every projection caught up, in rounds (as the workers drain them). */
export async function drainAll(db: Kysely<unknown>, options: ProjectorOptions = {}): Promise<DrainReport[]> {
  return drainRounds(
    db,
    PROJECTIONS.map((projection) => projection.name),
    options,
  );
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
