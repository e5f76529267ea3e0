/**
 * Replay: rebuild a projection from the first event into fresh tables while the live ones
 * keep serving, then swap them in atomically.
 *
 * 1. Fresh tables `read_rebuild_<name>.<table>` are made `LIKE read.<table>` (same columns,
 *    checks, primary and unique keys); the other indexes are built once the rows are in.
 * 2. Events are projected into them by the projection's SQL rules (the live projector's own)
 *    in chunks, one transaction each, from (0, 0) up to what the xmin gate lets through. The
 *    live projector keeps running meanwhile. A projection with a set-based load
 *    (`bulkReplay`, e.g. accounts) first loads everything up to a checkpoint behind the gate
 *    in one pass, its accounts split in parts loaded at once on several connections; the
 *    chunks then apply only what came after that checkpoint.
 * 3. The swap transaction locks the live checkpoint row (FOR UPDATE, waiting for a live batch
 *    in flight; afterwards live projectors skip the row, so they pause), projects the last
 *    events, drops the live tables, moves the rebuilt ones into `read`, sets the checkpoint
 *    and NOTIFYs. Readers block for the moment of the swap and then see the new tables.
 * The DDL of steps 1 and 3 and of the index builds runs as the owner, in the `replay.*` SQL
 * functions (projections/engine/replay.sql): this code runs as the runtime role, which has no DDL rights.
 */
import { availableParallelism } from 'node:os';
import { sql, type Kysely } from 'kysely';
import { withAdvisoryLock } from '../../platform/database.ts';
import { START, type Checkpoint } from './checkpoint.ts';
import type { Projection, ProjectionName } from './definition.ts';
import { lockCheckpoint, projectNext, runAfterRounds, saveCheckpoint } from './projector.ts';
import { projectionNamed } from '../registry.ts';

export interface ReplayProgress {
  projection: ProjectionName;
  applied: number;
  total: number;
  /**
   * What the replay is doing: the set-based load or the chunks up to the gate ('load'), the
   * deferred index builds ('indexes', the events all applied), the swap ('swap'), done ('done').
   */
  phase: ReplayPhase;
}

export type ReplayPhase = 'load' | 'indexes' | 'swap' | 'done';

/**
 * Events per replay chunk: each chunk is one transaction, and while it runs it holds the
 * cluster's snapshot xmin, so the live projectors wait for it. Larger chunks amortise each
 * statement's start-up and name lookups a little better and hold the projectors back longer
 * (docs/read-side.md, Replay; the figures in bench/RESULTS.md).
 */
export const REPLAY_BATCH_SIZE = 20_000;

export interface ReplayOptions {
  batchSize?: number;
  /** Parts of a set-based load run at once, each on a connection of its own (default: the cores). */
  parallelism?: number;
  onProgress?: (progress: ReplayProgress) => void;
}

export interface ReplayReport {
  projection: ProjectionName;
  events: number;
  seconds: number;
  /** Where the time went: projecting into the rebuild tables, building their deferred indexes, the swap. */
  phases: { loadSeconds: number; indexSeconds: number; swapSeconds: number };
  checkpoint: Checkpoint;
}

export function rebuildSchema(name: ProjectionName): string {
  return `read_rebuild_${name}`;
}

/**
 * The rebuild tables start with the live tables' columns, checks and unique keys (the
 * projectors' upserts and updates need those; insert-only tables get theirs later too), but
 * without their other indexes: building an index once over the loaded rows is far cheaper
 * than maintaining it row by row (a trigram GIN index most of all). `createDeferredIndexes`
 * adds them before the swap, under the live indexes' own names, so a migration can name an
 * index whether or not a replay ran since.
 *
 * The DDL itself runs in the `replay.*` SQL functions (projections/engine/replay.sql): the runtime role this
 * code runs as has no DDL rights; the functions, owned by the schema's owner, do only these
 * fixed steps and only on the projections' own tables.
 */
async function createRebuildTables(db: Kysely<unknown>, projection: Projection): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // A replay that crashed left its half-built tables behind: start over.
    await sql`select replay.reset_rebuild_schema(${projection.name})`.execute(trx);
    for (const table of projection.tables) {
      const withKeys = !isInsertOnly(projection, table) && !keysAfterBulkLoad(projection, table);
      await sql`select replay.create_rebuild_table(${projection.name}, ${table}, ${withKeys})`.execute(trx);
    }
  });
}

function keysAfterBulkLoad(projection: Projection, table: string): boolean {
  return projection.bulkReplay !== undefined && (projection.keysAfterBulkLoad?.includes(table) ?? false);
}

/** The primary and unique keys of the tables the set-based load filled without them, before the chunks need them. */
async function addKeysAfterBulkLoad(db: Kysely<unknown>, projection: Projection, parallelism: number): Promise<void> {
  for (const table of projection.tables.filter((name) => keysAfterBulkLoad(projection, name)))
    for (const key of await liveKeyNames(db, table)) await buildRebuildIndex(db, projection, table, key, parallelism);
}

/**
 * Sort and GIN build memory for the deferred index builds: with the default 64 MB a trigram
 * index over a million history rows is built in many flushed runs.
 */
const INDEX_BUILD_MEMORY = '256MB';

async function createDeferredIndexes(db: Kysely<unknown>, projection: Projection, parallelism: number): Promise<void> {
  for (const table of projection.tables) {
    // Keys already added (at creation or after the set-based load) are skipped by the function.
    for (const index of await liveIndexNames(db, table))
      await buildRebuildIndex(db, projection, table, index, parallelism);
  }
}

async function buildRebuildIndex(
  db: Kysely<unknown>,
  projection: Projection,
  table: string,
  index: string,
  parallelism: number,
): Promise<void> {
  // Workers beside the building backend: B-tree and (PostgreSQL 18) GIN builds scan and sort in
  // parallel; a server that caps max_parallel_workers gets fewer, never an error.
  const workers = String(Math.max(0, Math.floor(parallelism) - 1));
  // Each index in its own transaction, so no snapshot is held across all of them (it would
  // hold back the xmin gate), and the memory setting is SET LOCAL to it: a session setting
  // would stay behind on whichever server connection a transaction-mode pooler (PgBouncer)
  // ran it on. The replay functions keep the caller's maintenance_work_mem (they pin only
  // search_path).
  await db.transaction().execute(async (trx) => {
    await sql`select set_config('maintenance_work_mem', ${INDEX_BUILD_MEMORY}, true),
                     set_config('max_parallel_maintenance_workers', ${workers}, true)`.execute(trx);
    await sql`select replay.build_rebuild_index(${projection.name}, ${table}, ${index})`.execute(trx);
  });
}

function isInsertOnly(projection: Projection, table: string): boolean {
  return projection.insertOnlyTables?.includes(table) ?? false;
}

async function liveIndexNames(db: Kysely<unknown>, table: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid
     where i.indrelid = ${`read.${table}`}::regclass
     order by c.relname`.execute(db);
  return rows.map((row) => row.name);
}

async function liveKeyNames(db: Kysely<unknown>, table: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select conname as name from pg_constraint
     where conrelid = ${`read.${table}`}::regclass and contype in ('p', 'u')
     order by conname`.execute(db);
  return rows.map((row) => row.name);
}

export async function countEvents(db: Kysely<unknown>): Promise<number> {
  const { rows } = await sql<{ total: bigint }>`select count(*) as total from ledger.events`.execute(db);
  return Number(rows[0]?.total ?? 0n);
}

/**
 * Replays of one projection exclude each other (a second would drop the first's tables). The
 * lock is held by a transaction of its own while the replay runs on the pool's other
 * connections (platform/database.ts, withAdvisoryLock: a session lock would not hold behind a
 * transaction-mode pooler), so a replay takes two connections.
 */
async function withReplayLock<T>(db: Kysely<unknown>, name: ProjectionName, run: () => Promise<T>): Promise<T> {
  const outcome = await withAdvisoryLock(db, `replay:${name}`, { wait: false }, run);
  if (!outcome.locked) throw new Error(`a replay of ${name} is already running`);
  return outcome.value;
}

export async function replayProjection(
  db: Kysely<unknown>,
  name: ProjectionName,
  options: ReplayOptions = {},
): Promise<ReplayReport> {
  return withReplayLock(db, name, () => rebuildAndSwap(db, name, options));
}

/**
 * Rebuilds several projections at the same time, each on its own pooled connection (the pool
 * needs two per projection: the lock's and the work's, see withReplayLock): Postgres works on several at once, one projection's load
 * overlapping another's index builds. Each swaps in on its own
 * as soon as it is done. Waits for all; the first failure is rethrown.
 */
export async function replayProjections(
  db: Kysely<unknown>,
  names: readonly ProjectionName[],
  options: ReplayOptions = {},
): Promise<ReplayReport[]> {
  const outcomes = await Promise.allSettled(names.map((name) => replayProjection(db, name, options)));
  const failed = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<ReplayReport>).value);
}

async function rebuildAndSwap(
  db: Kysely<unknown>,
  name: ProjectionName,
  options: ReplayOptions,
): Promise<ReplayReport> {
  const projection = projectionNamed(name);
  const batchSize = options.batchSize ?? REPLAY_BATCH_SIZE;
  const schema = rebuildSchema(name);
  const startedAt = performance.now();
  const total = await countEvents(db);
  await createRebuildTables(db, projection);
  const parallelism = options.parallelism ?? availableParallelism();
  const bulk = await bulkLoad(db, projection, parallelism);
  await addKeysAfterBulkLoad(db, projection, parallelism);
  let checkpoint = bulk.checkpoint;
  let applied = bulk.applied;
  const report = (phase: ReplayPhase): void =>
    options.onProgress?.({ projection: name, applied, total: Math.max(total, applied), phase });
  report('load');
  // Catch up in short transactions, without holding the live projector back.
  for (;;) {
    const step = await db.transaction().execute((trx) => projectNext(trx, projection, schema, checkpoint, batchSize));
    applied += step.applied;
    checkpoint = step.checkpoint;
    report('load');
    if (step.applied < batchSize) break;
  }
  const loadedAt = performance.now();
  report('indexes');
  await createDeferredIndexes(db, projection, parallelism);
  const indexedAt = performance.now();
  report('swap');
  await db.transaction().execute(async (trx) => {
    await lockCheckpoint(trx, name, 'wait');
    for (;;) {
      const step = await projectNext(trx, projection, schema, checkpoint, batchSize);
      applied += step.applied;
      checkpoint = step.checkpoint;
      if (step.applied < batchSize) break;
    }
    // In the projection's table order (readers that take several take them in this order).
    for (const table of projection.tables) await sql`select replay.swap_in_table(${name}, ${table})`.execute(trx);
    await sql`select replay.drop_rebuild_schema(${name})`.execute(trx);
    await saveCheckpoint(trx, name, checkpoint, applied, 'set');
  });
  // What the tail's rules left for after the rounds (the live tables now).
  await runAfterRounds(db, [name]);
  report('done');
  const endedAt = performance.now();
  const phases = {
    loadSeconds: (loadedAt - startedAt) / 1000,
    indexSeconds: (indexedAt - loadedAt) / 1000,
    swapSeconds: (endedAt - indexedAt) / 1000,
  };
  return { projection: name, events: applied, seconds: (endedAt - startedAt) / 1000, phases, checkpoint };
}

/**
 * The balances alone, rebuilt for an operator who needs them now (issue 42): per account, from
 * each wallet's running figures on its newest posting (`projector.bulk_replay_balances`,
 * projections/accounts/rules.sql, decision 0022), its parts at once on several connections, up to the accounts projection's own checkpoint - held locked
 * from the load through the swap, so the live accounts projector pauses for those seconds and
 * the new balances agree with the directory and statements beside them. Excludes a replay of
 * accounts (the same lock). Statements and the directory are left as they are: `replayProjection`
 * rebuilds those.
 */
export async function replayBalances(db: Kysely<unknown>, options: ReplayOptions = {}): Promise<ReplayReport> {
  return withReplayLock(db, 'accounts', async () => {
    const startedAt = performance.now();
    const parts = Math.max(1, Math.floor(options.parallelism ?? availableParallelism()));
    await db.transaction().execute(async (trx) => {
      await sql`select replay.reset_rebuild_schema('accounts')`.execute(trx);
      await sql`select replay.create_rebuild_table('accounts', 'balances', true)`.execute(trx);
    });
    return db.transaction().execute(async (trx) => {
      const checkpoint = (await lockCheckpoint(trx, 'accounts', 'wait')) ?? START;
      const { rows } = await sql<{ events: bigint }>`
        select events_applied as events from read.checkpoints where projection = 'accounts'`.execute(trx);
      const events = Number(rows[0]?.events ?? 0n);
      options.onProgress?.({ projection: 'accounts', applied: 0, total: events, phase: 'load' });
      await Promise.all(
        Array.from({ length: parts }, (_, part) =>
          db.transaction().execute(async (partTrx) => {
            await sql`select projector.bulk_replay_balances(${checkpoint.txId.toString()}::xid8,
              ${checkpoint.position.toString()}::bigint, ${parts}::integer, ${part}::integer)`.execute(partTrx);
          }),
        ),
      );
      const loadedAt = performance.now();
      options.onProgress?.({ projection: 'accounts', applied: events, total: events, phase: 'indexes' });
      for (const index of await liveIndexNames(trx, 'balances'))
        await sql`select replay.build_rebuild_index('accounts', 'balances', ${index})`.execute(trx);
      const indexedAt = performance.now();
      options.onProgress?.({ projection: 'accounts', applied: events, total: events, phase: 'swap' });
      await sql`select replay.swap_in_table('accounts', 'balances')`.execute(trx);
      await sql`select replay.drop_rebuild_schema('accounts')`.execute(trx);
      const endedAt = performance.now();
      options.onProgress?.({ projection: 'accounts', applied: events, total: events, phase: 'done' });
      const phases = {
        loadSeconds: (loadedAt - startedAt) / 1000,
        indexSeconds: (indexedAt - loadedAt) / 1000,
        swapSeconds: (endedAt - indexedAt) / 1000,
      };
      return { projection: 'accounts', events, seconds: (endedAt - startedAt) / 1000, phases, checkpoint };
    });
  });
}

/**
 * The last event the xmin gate lets through (every event up to it in read order is committed
 * and final, projections/engine/event-range.ts) and how many events there are up to it.
 */
async function gateCheckpoint(db: Kysely<unknown>): Promise<{ checkpoint: Checkpoint; applied: number }> {
  const { rows } = await sql<{ tx_id: string; position: bigint; events: bigint }>`
    with last as (
      select e.tx_id, e.position from ledger.events e
       where e.tx_id < pg_snapshot_xmin(pg_current_snapshot())
       order by e.tx_id desc, e.position desc
       limit 1)
    select l.tx_id::text as tx_id, l.position,
           (select count(*) from ledger.events e where (e.tx_id, e.position) <= (l.tx_id, l.position)) as events
      from last l`.execute(db);
  const row = rows[0];
  if (!row) return { checkpoint: START, applied: 0 };
  return { checkpoint: { txId: BigInt(row.tx_id), position: row.position }, applied: Number(row.events) };
}

/**
 * A projection's set-based load up to the gate (nothing for one without): its parts at once,
 * each in its own transaction on a pooled connection. A part's transaction holds the snapshot
 * xmin while it runs, so the live projectors wait for it, as they wait for a chunk.
 */
async function bulkLoad(
  db: Kysely<unknown>,
  projection: Projection,
  parallelism: number,
): Promise<{ checkpoint: Checkpoint; applied: number }> {
  if (!projection.bulkReplay) return { checkpoint: START, applied: 0 };
  const gate = await gateCheckpoint(db);
  if (gate.applied === 0) return gate;
  const parts = Math.max(1, Math.floor(parallelism));
  const load = sql.id('projector', projection.bulkReplay);
  const { txId, position } = gate.checkpoint;
  await Promise.all(
    Array.from({ length: parts }, (_, part) =>
      db.transaction().execute(async (trx) => {
        await sql`select ${load}(${txId.toString()}::xid8, ${position.toString()}::bigint, ${parts}::integer, ${part}::integer)`.execute(
          trx,
        );
      }),
    ),
  );
  return gate;
}
