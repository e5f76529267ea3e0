/**
 * B1, ledger core: transfers/s through the command functions (no HTTP, group commit on, as
 * the API runs them) at 1, 8 and 32 clients, over 10,000 wallets (uniform) and over 10 hot
 * wallets, against three baselines measured in the same run on the same database:
 *   (a) commit ceiling - one autocommit INSERT of one row: one round trip, one commit;
 *   (b) minimal transfer - one SQL function call updating two balance rows and inserting
 *       one entry: the least any ledger transfer can cost on Postgres, one per commit;
 *   (c) batched minimal transfer - the same two UPDATEs and one INSERT per transfer, batched
 *       by the ledger's own group-commit policy (createBatcher, DEFAULT_BATCHING), the rows
 *       of a batch locked in id order first as the ledger's batch does.
 * And the uniform 32-client run with the projection worker process live (as
 * production runs it), and the projection lag when the load stops: the ledger must not
 * outrun its read side without limit. Errors are counted in every run and printed.
 * Each row also gives the WAL written per transfer (ledger and minimal baseline), and, with
 * `large`, the matrix runs again after the same ledger is grown to millions of events
 * (seed-transfers.ts), baselines included; verifyLedger then checks the whole database.
 * Last, with `peer`, the peer row (peers/emmett.ts): the same transfers through
 * @event-driven-io/emmett-postgresql in a fresh database of the same server, each set against
 * this run's ledger row of the same distribution and client count (ratioOfLedger).
 */
import { randomUUID } from 'node:crypto';
import { newId } from '../platform/ids.ts';
import { sql, type Kysely } from 'kysely';
import { createDatabase, tablesView } from '../platform/database.ts';
import { createJobBoss } from '../platform/jobs.ts';
import { createWiredLedger, type WiredLedger } from '../runtime/ledger.ts';
import { createBatcher, createLedger, DEFAULT_BATCHING, rupees, type LedgerTables } from '../ledger/index.ts';
import { verifyLedger } from '../audit/index.ts';
import { projectionStatus } from '../operations/index.ts';
import { createCluster, sleep } from '../reliability/processes.ts';
import { countEvents, seedTransfers, type SeededTransfers } from './seed-transfers.ts';
import { measureThroughput, median, seededRandom, type BenchDatabase, type ThroughputResult } from './harness.ts';
import { benchEmmettPeer, type B1PeerFigures } from './peers/emmett.ts';
import { walByRelation, type WalRange, type WalRelationShare } from './wal-profile.ts';
import { measureProjectionCosts, type ProjectionCostOptions, type ProjectionCostRow } from './projection-cost.ts';
import {
  openProfileWindow,
  stopTimingFunctions,
  timeWorkerFunctions,
  type LiveProfile,
  type ProfileWindow,
} from './live-profile.ts';

export interface LedgerCoreRow {
  /** 'small': the wallets' opening events and the runs before; 'large': grown to LedgerCoreOptions.large.events. */
  ledger: 'small' | 'large';
  /** Events in ledger.events when the row started. */
  ledgerEventsAtStart: number;
  distribution: 'uniform' | 'hot';
  clients: number;
  transfersPerSecond: number;
  commitCeilingPerSecond: number;
  minimalTransferPerSecond: number;
  batchedMinimalPerSecond: number;
  /** Against the unbatched minimal transfer (the target: >= 1.0x). */
  ratioToMinimal: number;
  ratioToBatchedMinimal: number;
  /** Against one autocommit INSERT (the moonshot: >= 1.5x). */
  ratioToCeiling: number;
  /** Failed operations over all repeats: ledger transfers, then the baselines together. */
  transferErrors: number;
  baselineErrors: number;
  /**
   * WAL written during the ledger-transfer runs over the transfers they completed (full-page
   * images included: a checkpoint makes the next touch of each page write it whole).
   */
  walBytesPerTransfer: number;
  /** The same for the minimal-transfer baseline. */
  minimalWalBytesPerTransfer: number;
  /** Checkpoints completed during those runs (transfer and minimal): non-zero raises their WAL figures. */
  checkpointsDuringWalRuns: number;
  /**
   * Since the last checkpoint when the row started: soon after one, most pages a transfer
   * touches are first touches, each logged as a full page image.
   */
  secondsSinceCheckpointAtStart: number;
  /** Where the transfer runs' WAL went (bench/wal-profile.ts); on the rows at the most clients over all wallets. */
  walByRelation?: WalRelationShare[] | undefined;
}

export interface LedgerVerifySummary {
  clean: boolean;
  summary: string;
}

export interface LedgerCoreFigures {
  rows: LedgerCoreRow[];
  live: LiveProjectionFigures;
  /** verifyLedger on B1's database after every run. */
  verify: LedgerVerifySummary;
  /** How the large ledger was grown, when it was. */
  largeSeed: SeededTransfers | undefined;
  /** The peer event store's rows, when LedgerCoreOptions.peer asked for them. */
  peers: B1PeerFigures | undefined;
  /** Each projection's cost per event alone, on the small matrix's transfers. */
  projectionCosts: ProjectionCostRow[];
}

export interface LiveProjectionFigures {
  clients: number;
  seconds: number;
  transfersPerSecond: number;
  errors: number;
  /** Against the same distribution's unbatched minimal transfer in the matrix. */
  ratioToMinimal: number;
  /** The furthest-behind projection when the load stopped. */
  eventsBehindAtEnd: number;
  secondsBehindAtEnd: number;
  /** From the load stopping until every projection had applied every event. */
  catchUpSeconds: number;
  /** Where the machine went meanwhile (live-profile.ts); absent if it could not be read. */
  profile?: LiveProfile;
  /**
   * The same load right after, with the worker stopped: what the ledger does on this box at
   * this point of the run without its read side. Measured next to the live run, so the
   * worker's share of the pace shows without the drift of a minimal measured minutes later.
   */
  ledgerAloneAfter?: { transfersPerSecond: number; errors: number };
  /** transfersPerSecond against ledgerAloneAfter's. */
  ratioToLedgerAloneAfter?: number;
}

export interface LedgerCoreOptions {
  wallets: number;
  hotWallets: number;
  clientCounts: readonly number[];
  durationMs: number;
  repeats: number;
  /** Then grow the ledger to `events` and run the matrix again at `clientCounts` (baselines again too). */
  large?: { events: number; clientCounts: readonly number[] };
  /**
   * Then the peer (peers/emmett.ts) at `clients`, after everything above and in its own
   * database and process, over the same wallet counts with the same durations and repeats.
   */
  peer?: { clients: number };
  /** How many of the matrix's events each projection applies alone, in batches of what size. */
  projectionCost: ProjectionCostOptions;
  log: (line: string) => void;
}

const SEED_PAISE = rupees(100_000);
/** Bounds the wait for the projections to catch up (a backlog past this is a failure to report, not wait out). */
const CATCH_UP_LIMIT_MS = 120_000;

export async function benchLedgerCore(database: BenchDatabase, options: LedgerCoreOptions): Promise<LedgerCoreFigures> {
  const maxClients = Math.max(...options.clientCounts);
  const db = createDatabase<unknown>({
    connectionString: database.url,
    maxConnections: maxClients + 4,
    applicationName: 'bench-ledger',
  });
  const boss = createJobBoss(database.url, { supervise: false, schedule: false, max: 2 });
  await boss.start();
  const ledger = createWiredLedger(tablesView<LedgerTables>(db));
  let figures: LedgerCoreFigures;
  try {
    options.log(`seeding ${options.wallets} wallets...`);
    await seedWallets(db, options.wallets);
    await createBaselines(db, options.wallets);
    const batchedMinimal = createBatcher(DEFAULT_BATCHING, async (transfers: readonly [number, number][]) => {
      await sql`select bench.minimal_transfer_batch(${JSON.stringify(transfers)}::jsonb)`.execute(db);
      return transfers.map(() => ({ ok: true as const, value: undefined }));
    });
    // The live run first: the worker then catches up with the seeding only, not with the whole matrix.
    const live = await withProjectionsLive(database, db, ledger, options, maxClients);
    const rows = await measureMatrix(db, ledger, batchedMinimal, options, 'small', options.clientCounts);
    // No worker ran during the matrix: its transfers are what each projection now applies alone.
    const projectionCosts = await measureProjectionCosts(database.url, options.projectionCost);
    let largeSeed: SeededTransfers | undefined;
    if (options.large) {
      largeSeed = await seedTransfers(db, {
        targetEvents: options.large.events,
        walletPrefix: WALLET_PREFIX,
        wallets: options.wallets,
        log: options.log,
      });
      options.log(
        `B1 large ledger: ${largeSeed.transfersAdded.toLocaleString()} transfers appended (${largeSeed.eventsAfter.toLocaleString()} events) ` +
          `in ${largeSeed.seconds.toFixed(1)} s, of which vacuum analyze ${largeSeed.vacuumSeconds.toFixed(1)} s`,
      );
      rows.push(...(await measureMatrix(db, ledger, batchedMinimal, options, 'large', options.large.clientCounts)));
    }
    await ledger.wakeUps.flush();
    const verify = await verifySummary(db);
    options.log(`B1 ledger verify: ${verify.clean ? 'clean' : 'NOT CLEAN'} (${verify.summary})`);
    const uniformMinimal = rows.find(
      (row) => row.ledger === 'small' && row.distribution === 'uniform' && row.clients === maxClients,
    );
    live.ratioToMinimal = live.transfersPerSecond / (uniformMinimal?.minimalTransferPerSecond ?? Number.NaN);
    figures = { rows, live, verify, largeSeed, peers: undefined, projectionCosts };
  } finally {
    await ledger.wakeUps.flush();
    await boss.stop({ graceful: false });
    await db.destroy();
  }
  if (options.peer) figures.peers = await measurePeer(database, options, options.peer.clients, figures.rows);
  return figures;
}

/** The peer's rows, each against our ledger's small-ledger row of the same distribution and client count. */
async function measurePeer(
  database: BenchDatabase,
  options: LedgerCoreOptions,
  clients: number,
  rows: readonly LedgerCoreRow[],
): Promise<B1PeerFigures> {
  const peers = await benchEmmettPeer(
    database,
    {
      wallets: options.wallets,
      hotWallets: options.hotWallets,
      clients,
      durationMs: options.durationMs,
      repeats: options.repeats,
      openingPaise: Number(SEED_PAISE),
    },
    options.log,
  );
  for (const peer of peers.rows) {
    const ours = rows.find(
      (row) => row.ledger === 'small' && row.distribution === peer.distribution && row.clients === peer.clients,
    );
    peer.ratioOfLedger = peer.transfersPerSecond / (ours?.transfersPerSecond ?? Number.NaN);
    options.log(
      `B1 peer ${peer.peer} ${peer.distribution} x${peer.clients}: ${peer.transfersPerSecond.toFixed(0)}/s, ` +
        `${peer.ratioOfLedger.toFixed(2)}x our ledger (${(ours?.transfersPerSecond ?? Number.NaN).toFixed(0)}/s)`,
    );
  }
  return peers;
}

type BatchedMinimal = (pair: [number, number]) => Promise<unknown>;

/** Both distributions at each client count: the ledger's transfers and the three baselines, each repeat. */
async function measureMatrix(
  db: Kysely<unknown>,
  ledger: WiredLedger,
  batchedMinimal: BatchedMinimal,
  options: LedgerCoreOptions,
  size: LedgerCoreRow['ledger'],
  clientCounts: readonly number[],
): Promise<LedgerCoreRow[]> {
  const rows: LedgerCoreRow[] = [];
  for (const distribution of ['uniform', 'hot'] as const) {
    const population = distribution === 'uniform' ? options.wallets : options.hotWallets;
    for (const clients of clientCounts) {
      const start = { events: await countEvents(db), secondsSinceCheckpoint: await secondsSinceCheckpoint(db) };
      const samples = {
        transfer: [] as WalSample[],
        ceiling: [] as ThroughputResult[],
        minimal: [] as WalSample[],
        batched: [] as ThroughputResult[],
      };
      for (let repeat = 0; repeat < options.repeats; repeat++) {
        const pick = pairs(population, repeat * 1000 + clients);
        const run = (operation: () => Promise<unknown>) =>
          measureThroughput(clients, options.durationMs, async () => {
            await operation();
          });
        // Autocommit: one round trip and one commit per row, nothing around it.
        samples.ceiling.push(await run(() => sql`insert into bench.commit_ceiling (v) values (1)`.execute(db)));
        samples.minimal.push(
          await withWal(db, () =>
            run(() => {
              const [from, to] = pick();
              return sql`select bench.minimal_transfer(${from}, ${to}, 100)`.execute(db);
            }),
          ),
        );
        samples.batched.push(await run(() => batchedMinimal(pick())));
        samples.transfer.push(await withWal(db, () => run(() => ledgerTransfer(ledger, pick()))));
      }
      const row = rowOf(size, start, distribution, clients, samples);
      if (distribution === 'uniform' && clients === Math.max(...clientCounts))
        row.walByRelation = await walByRelation(
          db,
          samples.transfer.map((sample) => sample.range),
          samples.transfer.reduce((sum, sample) => sum + sample.result.operations, 0),
        );
      options.log(
        `B1 ${size} ${distribution} x${clients}: ${row.transfersPerSecond.toFixed(0)}/s (minimal ${row.minimalTransferPerSecond.toFixed(0)}/s, ` +
          `batched minimal ${row.batchedMinimalPerSecond.toFixed(0)}/s, ceiling ${row.commitCeilingPerSecond.toFixed(0)}/s; errors ${row.transferErrors}/${row.baselineErrors}; ` +
          `WAL ${row.walBytesPerTransfer.toFixed(0)} B/transfer, minimal ${row.minimalWalBytesPerTransfer.toFixed(0)} B; ${row.checkpointsDuringWalRuns} checkpoints)`,
      );
      rows.push(row);
    }
  }
  return rows;
}

function rowOf(
  size: LedgerCoreRow['ledger'],
  start: { events: number; secondsSinceCheckpoint: number },
  distribution: LedgerCoreRow['distribution'],
  clients: number,
  samples: { transfer: WalSample[]; ceiling: ThroughputResult[]; minimal: WalSample[]; batched: ThroughputResult[] },
): LedgerCoreRow {
  const perSecond = (results: readonly ThroughputResult[]) =>
    median(results.map((result) => result.operationsPerSecond));
  const errors = (results: readonly ThroughputResult[]) => results.reduce((sum, result) => sum + result.errors, 0);
  const results = (walSamples: readonly WalSample[]) => walSamples.map((sample) => sample.result);
  const transfers = perSecond(results(samples.transfer));
  const minimal = perSecond(results(samples.minimal));
  return {
    ledger: size,
    ledgerEventsAtStart: start.events,
    distribution,
    clients,
    transfersPerSecond: transfers,
    commitCeilingPerSecond: perSecond(samples.ceiling),
    minimalTransferPerSecond: minimal,
    batchedMinimalPerSecond: perSecond(samples.batched),
    ratioToMinimal: transfers / minimal,
    ratioToBatchedMinimal: transfers / perSecond(samples.batched),
    ratioToCeiling: transfers / perSecond(samples.ceiling),
    transferErrors: errors(results(samples.transfer)),
    baselineErrors: errors(samples.ceiling) + errors(results(samples.minimal)) + errors(samples.batched),
    walBytesPerTransfer: walPerOperation(samples.transfer),
    minimalWalBytesPerTransfer: walPerOperation(samples.minimal),
    checkpointsDuringWalRuns: [...samples.transfer, ...samples.minimal].reduce((sum, s) => sum + s.checkpoints, 0),
    secondsSinceCheckpointAtStart: start.secondsSinceCheckpoint,
  };
}

interface WalSample {
  result: ThroughputResult;
  walBytes: number;
  checkpoints: number;
  range: WalRange;
}

/** Runs `measure` between two reads of the WAL insert position (and of the checkpoints done). */
async function withWal(db: Kysely<unknown>, measure: () => Promise<ThroughputResult>): Promise<WalSample> {
  const before = await walPoint(db);
  const result = await measure();
  const after = await walPoint(db);
  const { rows } = await sql<{ bytes: string }>`
    select pg_wal_lsn_diff(${after.lsn}::pg_lsn, ${before.lsn}::pg_lsn)::text as bytes`.execute(db);
  return {
    result,
    walBytes: Number(rows[0]?.bytes ?? Number.NaN),
    checkpoints: after.checkpoints - before.checkpoints,
    range: { start: before.lsn, end: after.lsn },
  };
}

async function walPoint(db: Kysely<unknown>): Promise<{ lsn: string; checkpoints: number }> {
  // num_done (PostgreSQL 18) counts checkpoints performed; before it, timed + requested.
  const { rows } = await sql<{ lsn: string; checkpoints: string }>`
    select pg_current_wal_lsn()::text as lsn,
           coalesce((to_jsonb(c) ->> 'num_done')::bigint,
                    (to_jsonb(c) ->> 'num_timed')::bigint + (to_jsonb(c) ->> 'num_requested')::bigint)::text as checkpoints
      from pg_stat_checkpointer c`.execute(db);
  return { lsn: rows[0]?.lsn ?? '0/0', checkpoints: Number(rows[0]?.checkpoints ?? 0) };
}

async function secondsSinceCheckpoint(db: Kysely<unknown>): Promise<number> {
  const { rows } = await sql<{ seconds: string }>`
    select extract(epoch from now() - checkpoint_time)::text as seconds from pg_control_checkpoint()`.execute(db);
  return Number(rows[0]?.seconds ?? Number.NaN);
}

function walPerOperation(samples: readonly WalSample[]): number {
  const bytes = samples.reduce((sum, sample) => sum + sample.walBytes, 0);
  const operations = samples.reduce((sum, sample) => sum + sample.result.operations, 0);
  return operations > 0 ? bytes / operations : Number.NaN;
}

/** verifyLedger, cut to a verdict and a line for the results. */
async function verifySummary(db: Kysely<unknown>): Promise<LedgerVerifySummary> {
  const started = performance.now();
  const report = await verifyLedger(db);
  const clean = report.differences.length === 0 && report.totalPaise === 0n;
  const events = await countEvents(db);
  const wallets = report.trialBalance.find((line) => line.kind === 'wallet')?.accounts ?? 0;
  const differences =
    report.differences.length === 0
      ? 'no differences'
      : `${report.differences.length} differences, first: ${report.differences.slice(0, 3).join('; ')}`;
  return {
    clean,
    summary: `${events.toLocaleString()} events, ${wallets.toLocaleString()} wallets; ${differences}; trial balance total ${report.totalPaise} paise; checked in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  };
}

/**
 * The uniform run with the worker process projecting as production does: it first catches
 * up with the seeding, then the load runs, then the lag when the
 * load stops and the time until every projection has caught up.
 */
async function withProjectionsLive(
  database: BenchDatabase,
  db: Kysely<unknown>,
  ledger: WiredLedger,
  options: LedgerCoreOptions,
  clients: number,
): Promise<LiveProjectionFigures> {
  const cluster = createCluster(database.runtimeUrl);
  let window: ProfileWindow | undefined;
  let figures: LiveProjectionFigures | undefined;
  let transfers = 0;
  const afterPick = pairs(options.wallets, 8);
  try {
    options.log('B1 with projections live: starting the worker and waiting for it to catch up...');
    await timeWorkerFunctions(db);
    const worker = await cluster.spawn('worker', 'bench-b1-worker');
    await caughtUp(db);
    const pick = pairs(options.wallets, 7);
    const seconds = (options.durationMs * options.repeats) / 1000;
    window = await openProfileWindow(db, database.url, { 'node: worker': worker.child?.pid });
    const result = await measureThroughput(clients, options.durationMs * options.repeats, () =>
      ledgerTransfer(ledger, pick()),
    );
    await window.endLoad();
    transfers = result.operations;
    await ledger.wakeUps.flush();
    const stopped = performance.now();
    const status = await projectionStatus(db);
    const eventsBehindAtEnd = Math.max(0, ...status.projections.map((p) => Number(p.eventsBehind)));
    const secondsBehindAtEnd = Math.max(0, ...status.projections.map((p) => p.secondsBehind));
    await caughtUp(db);
    figures = {
      clients,
      seconds,
      transfersPerSecond: result.operationsPerSecond,
      errors: result.errors,
      ratioToMinimal: Number.NaN,
      eventsBehindAtEnd,
      secondsBehindAtEnd,
      catchUpSeconds: (performance.now() - stopped) / 1000,
    };
    options.log(
      `B1 live x${clients}: ${figures.transfersPerSecond.toFixed(0)}/s (errors ${figures.errors}); at the end ${eventsBehindAtEnd} events / ` +
        `${secondsBehindAtEnd.toFixed(1)} s behind, caught up ${figures.catchUpSeconds.toFixed(1)} s later`,
    );
  } finally {
    await cluster.stopAll();
    await stopTimingFunctions(db);
  }
  // After the worker stopped: its backends' function times reach the statistics as they exit.
  if (window && transfers > 0) figures.profile = await window.finish(transfers);
  const alone = await measureThroughput(clients, options.durationMs * options.repeats, () =>
    ledgerTransfer(ledger, afterPick()),
  );
  figures.ledgerAloneAfter = { transfersPerSecond: alone.operationsPerSecond, errors: alone.errors };
  figures.ratioToLedgerAloneAfter = figures.transfersPerSecond / alone.operationsPerSecond;
  options.log(
    `B1 ledger alone right after, x${clients}: ${alone.operationsPerSecond.toFixed(0)}/s (errors ${alone.errors}); ` +
      `live was ${figures.ratioToLedgerAloneAfter.toFixed(2)}x of it`,
  );
  return figures;
}

async function caughtUp(db: Kysely<unknown>): Promise<void> {
  const deadline = performance.now() + CATCH_UP_LIMIT_MS;
  for (;;) {
    const status = await projectionStatus(db);
    if (status.projections.length > 0 && status.projections.every((p) => p.eventsBehind === 0n)) return;
    if (performance.now() > deadline)
      throw new Error(`projections still behind after ${CATCH_UP_LIMIT_MS} ms: ${JSON.stringify(status.projections)}`);
    await sleep(20);
  }
}

async function ledgerTransfer(ledger: WiredLedger, [from, to]: [number, number]): Promise<void> {
  await ledger.transfer(
    {
      // As the API mints it (platform/ids.ts); the idempotency key is the client's, random.
      transferId: newId(),
      fromAccountId: walletId(from),
      toAccountId: walletId(to),
      amountPaise: 100n,
      reference: 'bench',
    },
    { actorId: walletId(from), idempotencyKey: randomUUID() },
  );
}

const WALLET_PREFIX = 'bench-';

/** B1's name for its wallet `index` (the peer names its wallets the same). */
export function walletId(index: number): string {
  return `${WALLET_PREFIX}${index}`;
}

/** Two distinct wallets drawn uniformly from the first `population` (the peer draws with it too). */
export function pairs(population: number, seed: number): () => [number, number] {
  const random = seededRandom(seed);
  return () => {
    const from = Math.floor(random() * population);
    const to = (from + 1 + Math.floor(random() * (population - 1))) % population;
    return [from, to];
  };
}

/** Wallets are opened and funded through the ledger's own rules, in batches of concurrent commands. */
async function seedWallets(db: Kysely<unknown>, count: number): Promise<void> {
  const seeder = createLedger({ db: tablesView<LedgerTables>(db) });
  const BATCH = 16;
  for (let start = 0; start < count; start += BATCH) {
    await Promise.all(
      Array.from({ length: Math.min(BATCH, count - start) }, async (_, offset) => {
        const id = walletId(start + offset);
        await seeder.openWallet({ accountId: id, displayName: id }, { actorId: 'bench' });
        await seeder.completeCardDeposit(
          {
            depositId: `seed-${id}`,
            walletId: id,
            amountPaise: SEED_PAISE,
            reference: 'seed',
            provider: 'bench',
            paymentId: id,
          },
          { actorId: 'bench' },
        );
      }),
    );
  }
}

async function createBaselines(db: Kysely<unknown>, wallets: number): Promise<void> {
  await sql`
    create schema if not exists bench;
    create table if not exists bench.commit_ceiling (id bigserial primary key, v int not null);
    create table if not exists bench.balances (id int primary key, balance bigint not null);
    create table if not exists bench.entries (id bigserial primary key, from_id int not null, to_id int not null, amount bigint not null);
    create or replace function bench.minimal_transfer(p_from int, p_to int, p_amount bigint) returns void language plpgsql as $$
    begin
      -- Lock order by id, as any correct transfer must, so the baseline cannot deadlock either.
      update bench.balances set balance = balance + case when id = p_from then -p_amount else p_amount end
       where id = least(p_from, p_to);
      update bench.balances set balance = balance + case when id = p_from then -p_amount else p_amount end
       where id = greatest(p_from, p_to);
      insert into bench.entries (from_id, to_id, amount) values (p_from, p_to, p_amount);
    end $$;
    -- The same two UPDATEs and one INSERT per transfer, a batch at a time: the batch's rows are
    -- locked in id order first (as ledger.append_batch does), so concurrent batches cannot deadlock.
    create or replace function bench.minimal_transfer_batch(p_transfers jsonb) returns void language plpgsql as $$
    declare
      t jsonb;
    begin
      -- As an array, so the lookup goes through the primary key (a join on the expanded jsonb
      -- is planned as a scan of every balance row).
      perform 1 from bench.balances
        where id = any(array(select (e ->> 0)::int from jsonb_array_elements(p_transfers) e
                             union select (e ->> 1)::int from jsonb_array_elements(p_transfers) e))
        order by id for update;
      for t in select * from jsonb_array_elements(p_transfers) loop
        perform bench.minimal_transfer((t ->> 0)::int, (t ->> 1)::int, 100);
      end loop;
    end $$;
  `.execute(db);
  await sql`insert into bench.balances (id, balance) select g, 1000000000 from generate_series(0, ${wallets - 1}) g on conflict do nothing`.execute(
    db,
  );
}
