/**
 * B4 replay and B5 reads, on one seeded log (bench/seed-log.ts: through `ledger.append`):
 *   B4 - events/s rebuilding every projection from the first event, through the code behind
 *        `npm run ledger -- replay` (projections/engine/replay.ts): all projections at once, each on
 *        its own connection (a projection's own seconds overlap the others'); then the ledger is
 *        verified (audit/verify.ts) against the rebuilt tables;
 *   B5 - p50/p99 of a history page and of a history search for the one user (the hub) who
 *        takes part in a tenth of the activity, through the query the API's
 *        GET /transactions runs (projections/history/queries.ts readHistoryPage).
 */
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import { createLedger, type LedgerTables } from '../ledger/index.ts';
import { drainAll } from '../projections/index.ts';
import { createDatabase, tablesView } from '../platform/database.ts';
import { PROJECTIONS } from '../projections/registry.ts';
import type { ProjectionName } from '../projections/engine/definition.ts';
import { verifyLedger } from '../audit/index.ts';
import { replayBalances, replayProjections } from '../projections/engine/replay.ts';
import { HISTORY_PAGE_SIZE, readHistoryPage } from '../projections/history/queries.ts';
import { readViews, type ReadViews } from '../projections/tables.ts';
import { median, percentile, seededRandom, type BenchDatabase } from './harness.ts';
import { seedLog } from './seed-log.ts';

export { HUB_ACCOUNT_ID } from './seed-log.ts';

export interface ReplayRow {
  /** 'all' for the whole rebuild, else one projection. */
  projection: string;
  /** Events in the log (each projection reads all of them). */
  events: number;
  seconds: number;
  eventsPerSecond: number;
  /** Where a projection's time went (0 for 'all'): projecting events, building deferred indexes and keys, the swap. */
  loadSeconds: number;
  indexSeconds: number;
  swapSeconds: number;
  /** 'all' >= 100,000 events/s, 'balances' (the balances alone) >= 1,000,000 events/s; a projection has no target of its own. */
  targetMet: boolean;
}

/**
 * latest.json's key of each projection's B4 row. The keys stay those of the runs before
 * projection "statements" was renamed "statement_days" (issue 44), so a run compares with
 * earlier ones; the row's `projection` says the projection's name.
 */
const REPLAY_KEYS = {
  accounts: 'accounts',
  history: 'history',
  money_requests: 'money_requests',
  statement_days: 'statements',
} as const satisfies Record<ProjectionName, string>;

/**
 * B4's rows by projection (REPLAY_KEYS), 'all' for the whole rebuild, 'balances' for the
 * balances alone rebuilt after it (replayBalances) (latest.json: b4Replay.projections.<key>).
 */
export type ReplayFigures = Record<'all' | 'balances' | (typeof REPLAY_KEYS)[ProjectionName], ReplayRow>;

/** verifyLedger on the B4 database right after the replay, before B5's writes. */
export interface LedgerVerifyFigures {
  clean: boolean;
  /** One line: the count of differences and the trial balance's total, or the first differences. */
  summary: string;
  seconds: number;
}

export interface ReadRow {
  query: 'history page' | 'history search';
  /** The reader's history rows, and all history rows. */
  userRows: number;
  totalRows: number;
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Transfers a second committed by the concurrent write load while the reads ran. */
  writesPerSecond: number;
  /** p99 <= 20 ms. */
  targetMet: boolean;
}

export interface ReplayReadsOptions {
  /** Events in the seeded log (1,000,000 in the full run). */
  events: number;
  /** Transfers the B5 reader takes part in (100,000 in the full run). */
  hubTransfers: number;
  /** Wallets the rest of the activity is spread over. */
  wallets: number;
  /** Timed calls per B5 query. */
  samples: number;
  log: (line: string) => void;
}

export interface ReplayReadsResult {
  seedSeconds: number;
  replay: ReplayFigures;
  ledgerVerify: LedgerVerifyFigures;
  reads: ReadRow[];
}

export const REPLAY_TARGET_EVENTS_PER_SECOND = 100_000;
/** The balances (accounts) projection's own replay: set-based, so far faster than the others. */
export const ACCOUNTS_REPLAY_TARGET_EVENTS_PER_SECOND = 1_000_000;
export const READ_TARGET_P99_MS = 20;
const WARM_UP_CALLS = 20;

export async function benchReplayAndReads(
  database: BenchDatabase,
  options: ReplayReadsOptions,
): Promise<ReplayReadsResult> {
  const db = createDatabase<unknown>({
    connectionString: database.url,
    // Two per projection replayed at once (the replay lock's and the work's), and one more per
    // further part of the accounts' set-based load (one part per core).
    maxConnections: 2 * PROJECTIONS.length + availableParallelism() - 1,
    applicationName: 'bench-replay',
  });
  try {
    const seeded = await seedLog(db, database.url, {
      events: options.events,
      wallets: options.wallets,
      hubTransfers: options.hubTransfers,
      log: options.log,
    });
    options.log(`seed: ${seeded.events.toLocaleString()} events in ${seeded.seconds.toFixed(0)} s`);
    // What autovacuum would have done to a log this size by now: statistics, visibility map.
    await sql`vacuum analyze ledger.events, ledger.postings`.execute(db);
    const replay = await benchReplay(db, seeded.events, options);
    const ledgerVerify = await benchVerify(db, options);
    await sql`vacuum analyze read.history`.execute(db);
    const load = await startWriteLoad(database.url, seeded.hubAccountId);
    const [measured, writes] = await underLoad(load, () => benchReads(readViews(db), seeded.hubAccountId, options));
    options.log(
      `B5 write load: ${writes.transfers.toLocaleString()} transfers in ${writes.seconds.toFixed(1)} s (${(writes.transfers / writes.seconds).toFixed(0)}/s), ${writes.errors} errors`,
    );
    const reads = measured.map((row) => ({ ...row, writesPerSecond: writes.transfers / writes.seconds }));
    return { seedSeconds: seeded.seconds, replay, ledgerVerify, reads };
  } finally {
    await db.destroy();
  }
}

async function benchReplay(db: Kysely<unknown>, events: number, options: ReplayReadsOptions): Promise<ReplayFigures> {
  options.log(
    `B4 replay: rebuilding ${PROJECTIONS.length} projections at once from ${events.toLocaleString()} events...`,
  );
  const started = performance.now();
  const reports = await replayProjections(
    db,
    PROJECTIONS.map((projection) => projection.name),
  );
  const seconds = (performance.now() - started) / 1000;
  const rows = reports.map((report): [string, ReplayRow] => {
    options.log(
      `B4 replay ${report.projection}: ${report.events.toLocaleString()} events in ${report.seconds.toFixed(1)} s`,
    );
    const row: ReplayRow = {
      projection: report.projection,
      events: report.events,
      seconds: report.seconds,
      eventsPerSecond: report.events / report.seconds,
      loadSeconds: report.phases.loadSeconds,
      indexSeconds: report.phases.indexSeconds,
      swapSeconds: report.phases.swapSeconds,
      // The million a second is the balances' (the 'balances' row); a projection has none of its own.
      targetMet: false,
    };
    return [REPLAY_KEYS[report.projection], row];
  });
  const eventsPerSecond = events / seconds;
  const all: ReplayRow = {
    projection: 'all',
    events,
    seconds,
    eventsPerSecond,
    loadSeconds: 0,
    indexSeconds: 0,
    swapSeconds: 0,
    targetMet: eventsPerSecond >= REPLAY_TARGET_EVENTS_PER_SECOND,
  };
  const balances = await benchBalances(db, options);
  return Object.fromEntries([['all', all], ...rows, ['balances', balances]]) as ReplayFigures;
}

/** The balances alone, the operator's quick repair: per account, from its newest posting. */
async function benchBalances(db: Kysely<unknown>, options: ReplayReadsOptions): Promise<ReplayRow> {
  const report = await replayBalances(db);
  options.log(
    `B4 replay balances alone: ${report.events.toLocaleString()} events in ${report.seconds.toFixed(2)} s (load ${report.phases.loadSeconds.toFixed(2)} s)`,
  );
  const eventsPerSecond = report.events / report.seconds;
  return {
    projection: 'balances',
    events: report.events,
    seconds: report.seconds,
    eventsPerSecond,
    loadSeconds: report.phases.loadSeconds,
    indexSeconds: report.phases.indexSeconds,
    swapSeconds: report.phases.swapSeconds,
    targetMet: eventsPerSecond >= ACCOUNTS_REPLAY_TARGET_EVENTS_PER_SECOND,
  };
}

async function benchVerify(db: Kysely<unknown>, options: ReplayReadsOptions): Promise<LedgerVerifyFigures> {
  const started = performance.now();
  const report = await verifyLedger(db);
  const seconds = (performance.now() - started) / 1000;
  const clean = report.differences.length === 0;
  const summary = clean
    ? `no differences; trial balance total ${report.totalPaise} paise over ${report.trialBalance.length} lines`
    : `${report.differences.length} differences: ${report.differences.slice(0, 3).join('; ')}`;
  options.log(`B4 ledger verify: ${clean ? 'clean' : 'NOT CLEAN'} (${summary}) in ${seconds.toFixed(1)} s`);
  return { clean, summary, seconds };
}

/** A read figure before the write load it ran under is known. */
type MeasuredRead = Omit<ReadRow, 'writesPerSecond'>;

async function benchReads(db: ReadViews, accountId: string, options: ReplayReadsOptions): Promise<MeasuredRead[]> {
  const count = async (account?: string): Promise<number> => {
    let query = db.selectFrom('read.history').select((eb) => eb.fn.countAll<bigint>().as('n'));
    if (account) query = query.where('account_id', '=', account);
    return Number((await query.executeTakeFirstOrThrow()).n);
  };
  const userRows = await count(accountId);
  const totalRows = await count();
  const lastPage = Math.max(1, Math.ceil(userRows / HISTORY_PAGE_SIZE));
  const random = seededRandom(7);
  // First pages most, as people read them; then deep pages and the last one.
  const pageOf = (i: number): number =>
    i % 10 === 9 ? lastPage : i % 10 >= 6 ? 1 + Math.floor(random() * lastPage) : 1 + (i % 3);
  // A part of one of the reader's own transaction ids (uuid-shaped, as real ones).
  const someRow = await db
    .selectFrom('read.history')
    .select(['transaction_id', 'counterparty_name', 'amount_paise'])
    .where('account_id', '=', accountId)
    .orderBy('position')
    .offset(Math.floor(userRows / 2))
    .limit(1)
    .executeTakeFirst();
  const terms = [
    'Ravi',
    'bill',
    'birthday gift #4',
    (someRow?.transaction_id ?? 'x').slice(0, 13),
    'no such reference',
    // What a row shows (issue 41): a counterparty's name and an amount as people type it.
    someRow?.counterparty_name ?? 'nobody',
    typedAmount(BigInt(someRow?.amount_paise ?? 1n)),
  ];
  const pages = await timed((i) => readHistoryPage(db, { accountId, page: pageOf(i) }), options.samples);
  // Searches: the first pages of each term's results, and now and then a deep one.
  const searches = await timed(
    (i) => readHistoryPage(db, { accountId, search: terms[i % terms.length], page: i % 7 === 6 ? 50 : 1 + (i % 3) }),
    options.samples,
  );
  const row = (query: ReadRow['query'], samples: number[]): MeasuredRead => {
    const p99Ms = percentile(samples, 99);
    return {
      query,
      userRows,
      totalRows,
      samples: samples.length,
      p50Ms: median(samples),
      p99Ms,
      maxMs: Math.max(...samples),
      targetMet: p99Ms <= READ_TARGET_P99_MS,
    };
  };
  const rows = [row('history page', pages), row('history search', searches)];
  for (const read of rows)
    options.log(
      `B5 ${read.query}: p50 ${read.p50Ms.toFixed(1)} ms, p99 ${read.p99Ms.toFixed(1)} ms (${read.userRows.toLocaleString()} of ${read.totalRows.toLocaleString()} rows)`,
    );
  return rows;
}

/** Milliseconds per call, after a warm-up (caches, plans). Sequential: one reader's latency. */
async function timed(call: (i: number) => Promise<unknown>, samples: number): Promise<number[]> {
  for (let i = 0; i < WARM_UP_CALLS; i++) await call(i);
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await call(i);
    times.push(performance.now() - started);
  }
  return times;
}

export function printReplay(figures: ReplayFigures, verify: LedgerVerifyFigures): void {
  console.log(
    `\nB4 replay (events/s rebuilding projections from the log; target >= ${REPLAY_TARGET_EVENTS_PER_SECOND.toLocaleString()} events/s for all, >= ${ACCOUNTS_REPLAY_TARGET_EVENTS_PER_SECOND.toLocaleString()} for the balances alone)`,
  );
  console.table(
    Object.values(figures).map((row) => ({
      projection: row.projection,
      events: row.events,
      seconds: Number(row.seconds.toFixed(1)),
      'events/s': Math.round(row.eventsPerSecond),
      'load s': row.projection === 'all' ? '' : row.loadSeconds.toFixed(1),
      'index s': row.projection === 'all' ? '' : row.indexSeconds.toFixed(1),
      'swap s': row.projection === 'all' ? '' : row.swapSeconds.toFixed(2),
      target: hasReplayTarget(row.projection) ? (row.targetMet ? 'met' : 'MISSED') : '',
    })),
  );
  console.log(`B4 ledger verify after the replay: ${verify.clean ? 'clean' : 'NOT CLEAN'} - ${verify.summary}`);
}

/** The targets are the rebuild of all at once and of the balances alone; a projection has none of its own. */
function hasReplayTarget(projection: string): boolean {
  return projection === 'all' || projection === 'balances';
}

export function printReads(rows: readonly ReadRow[], scaledNote?: string): void {
  console.log(
    `\nB5 reads (one user's history through readHistoryPage, with transfers flowing; target p99 <= ${READ_TARGET_P99_MS} ms)${scaledNote ? ` - ${scaledNote}` : ''}`,
  );
  console.table(
    rows.map((row) => ({
      query: row.query,
      'user rows': row.userRows,
      'all rows': row.totalRows,
      samples: row.samples,
      'p50 ms': Number(row.p50Ms.toFixed(2)),
      'p99 ms': Number(row.p99Ms.toFixed(2)),
      'writes/s meanwhile': Math.round(row.writesPerSecond),
      target: row.targetMet ? 'met' : 'MISSED',
    })),
  );
}

/** Closed-loop transfer clients during B5, a quarter of them to or from the reader. */
const WRITE_LOAD_CLIENTS = 4;
/** How often the load's projector drains, as a worker's wake-ups would. */
const WRITE_LOAD_DRAIN_MS = 10;

interface WriteLoadFigures {
  transfers: number;
  errors: number;
  seconds: number;
}

interface WriteLoad {
  stop(): Promise<WriteLoadFigures>;
}

/** Runs `measure` while the load runs, and stops the load whatever happens. */
async function underLoad<T>(load: WriteLoad, measure: () => Promise<T>): Promise<[T, WriteLoadFigures]> {
  try {
    const result = await measure();
    return [result, await load.stop()];
  } catch (error) {
    await load.stop();
    throw error;
  }
}

/**
 * B5 reads while writes flow (the read-side issue: not only on an idle, freshly vacuumed
 * database): transfers through the ledger among seeded wallets and the reader, projected by
 * a draining loop, so the reader's history grows and the read tables take inserts meanwhile.
 */
async function startWriteLoad(url: string, readerId: string): Promise<WriteLoad> {
  const db = createDatabase<unknown>({
    connectionString: url,
    maxConnections: WRITE_LOAD_CLIENTS + 1,
    applicationName: 'bench-b5-writes',
  });
  const ledger = createLedger({ db: tablesView<LedgerTables>(db) });
  const { rows } = await sql<{ id: string }>`
    select data->>'accountId' as id from ledger.events
     where type = 'WalletOpened' and data->>'accountId' <> ${readerId}
     order by position limit 200`.execute(db);
  const wallets = rows.map((row) => row.id);
  const random = seededRandom(11);
  const pick = (): string => wallets[Math.floor(random() * wallets.length)] ?? readerId;
  let running = true;
  let transfers = 0;
  let errors = 0;
  const started = performance.now();
  const client = async (): Promise<void> => {
    while (running) {
      const roll = random();
      const from = roll < 0.125 ? readerId : pick();
      let to = roll >= 0.125 && roll < 0.25 ? readerId : pick();
      if (to === from) to = from === readerId ? pick() : readerId;
      try {
        await ledger.transfer(
          {
            transferId: randomUUID(),
            fromAccountId: from,
            toAccountId: to,
            amountPaise: 100n,
            reference: 'bench load',
          },
          { actorId: from, idempotencyKey: randomUUID() },
        );
        transfers += 1;
      } catch {
        errors += 1;
      }
    }
  };
  const projector = async (): Promise<void> => {
    while (running) {
      await drainAll(db);
      await sleep(WRITE_LOAD_DRAIN_MS);
    }
  };
  const loops = [...Array.from({ length: WRITE_LOAD_CLIENTS }, client), projector()];
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
      const seconds = (performance.now() - started) / 1000;
      await db.destroy();
      return { transfers, errors, seconds };
    },
  };
}

/** An amount as a person types it in the search box, grouped en-IN with the rupee sign ("₹1,234.50"). */
function typedAmount(paise: bigint): string {
  const rupees = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2 }).format(Number(paise) / 100);
  return `₹${rupees}`;
}
