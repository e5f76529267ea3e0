/**
 * Replay: rebuild a projection from the first event into fresh tables while the live ones
 * keep serving, then swap them in atomically.
 *
 * 1. Fresh tables `read_rebuild_<name>.<table>` are made `LIKE read.<table> INCLUDING ALL`
 *    (same columns, constraints and indexes).
 * 2. Events are projected into them by batches, one transaction each, from (0, 0) up to what
 *    the xmin gate lets through. The live projector keeps running meanwhile.
 * 3. The swap transaction locks the live checkpoint row (FOR UPDATE, waiting for a live batch
 *    in flight; afterwards live projectors skip the row, so they pause), projects the last
 *    events, drops the live tables, moves the rebuilt ones into `read`, sets the checkpoint
 *    and NOTIFYs. Readers block for the moment of the swap and then see the new tables.
 */
import { sql, type Kysely } from 'kysely';
import { START, type Checkpoint } from './checkpoint.ts';
import type { Projection, ProjectionName } from './definition.ts';
import { DEFAULT_BATCH_SIZE, lockCheckpoint, projectNext, saveCheckpoint } from './projector.ts';
import { projectionNamed } from './registry.ts';

export interface ReplayProgress {
  projection: ProjectionName;
  applied: number;
  total: number;
}

export interface ReplayOptions {
  batchSize?: number;
  onProgress?: (progress: ReplayProgress) => void;
}

export interface ReplayReport {
  projection: ProjectionName;
  events: number;
  seconds: number;
  checkpoint: Checkpoint;
}

export function rebuildSchema(name: ProjectionName): string {
  return `read_rebuild_${name}`;
}

async function createRebuildTables(db: Kysely<unknown>, projection: Projection): Promise<void> {
  const schema = rebuildSchema(projection.name);
  await db.transaction().execute(async (trx) => {
    // A replay that crashed left its half-built tables behind: start over.
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(trx);
    await sql`create schema ${sql.id(schema)}`.execute(trx);
    for (const table of projection.tables) {
      await sql`create table ${sql.id(schema, table)} (like ${sql.id('read', table)} including all)`.execute(trx);
    }
  });
}

export async function countEvents(db: Kysely<unknown>): Promise<number> {
  const { rows } = await sql<{ total: bigint }>`select count(*) as total from ledger.events`.execute(db);
  return Number(rows[0]?.total ?? 0n);
}

/** Replays of one projection exclude each other (a second would drop the first's tables). */
async function withReplayLock<T>(db: Kysely<unknown>, name: ProjectionName, run: (db: Kysely<unknown>) => Promise<T>): Promise<T> {
  return db.connection().execute(async (connection) => {
    const key = `replay:${name}`;
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(hashtext(${key})) as locked`.execute(connection);
    if (!rows[0]?.locked) throw new Error(`a replay of ${name} is already running`);
    try {
      return await run(connection);
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${key}))`.execute(connection);
    }
  });
}

export async function replayProjection(db: Kysely<unknown>, name: ProjectionName, options: ReplayOptions = {}): Promise<ReplayReport> {
  return withReplayLock(db, name, (connection) => rebuildAndSwap(connection, name, options));
}

async function rebuildAndSwap(db: Kysely<unknown>, name: ProjectionName, options: ReplayOptions): Promise<ReplayReport> {
  const projection = projectionNamed(name);
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const schema = rebuildSchema(name);
  const startedAt = performance.now();
  const total = await countEvents(db);
  await createRebuildTables(db, projection);
  let checkpoint = START;
  let applied = 0;
  const report = (): void => options.onProgress?.({ projection: name, applied, total: Math.max(total, applied) });
  // Catch up in short transactions, without holding the live projector back.
  for (;;) {
    const step = await db.transaction().execute((trx) => projectNext(trx, projection, schema, checkpoint, batchSize));
    applied += step.applied;
    checkpoint = step.checkpoint;
    report();
    if (step.applied < batchSize) break;
  }
  await db.transaction().execute(async (trx) => {
    await lockCheckpoint(trx, name, 'wait');
    for (;;) {
      const step = await projectNext(trx, projection, schema, checkpoint, batchSize);
      applied += step.applied;
      checkpoint = step.checkpoint;
      if (step.applied < batchSize) break;
    }
    for (const table of projection.tables) {
      await sql`drop table ${sql.id('read', table)}`.execute(trx);
      await sql`alter table ${sql.id(schema, table)} set schema read`.execute(trx);
    }
    await sql`drop schema ${sql.id(schema)}`.execute(trx);
    await saveCheckpoint(trx, name, checkpoint, applied, 'set');
  });
  report();
  return { projection: name, events: applied, seconds: (performance.now() - startedAt) / 1000, checkpoint };
}
