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
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { createDatabase, tablesView } from '../platform/database.ts';
import { createJobBoss } from '../platform/jobs.ts';
import { createWiredLedger, type WiredLedger } from '../runtime/ledger.ts';
import { createBatcher, createLedger, DEFAULT_BATCHING, rupees, type LedgerTables } from '../ledger/index.ts';
import { projectionStatus } from '../audit/index.ts';
import { createCluster, sleep } from '../reliability/processes.ts';
import { measureThroughput, median, seededRandom, type BenchDatabase, type ThroughputResult } from './harness.ts';

export interface LedgerCoreRow {
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
}

export interface LedgerCoreOptions {
  wallets: number;
  hotWallets: number;
  clientCounts: readonly number[];
  durationMs: number;
  repeats: number;
  log: (line: string) => void;
}

const SEED_PAISE = rupees(100_000);
/** Bounds the wait for the projections to catch up (a backlog past this is a failure to report, not wait out). */
const CATCH_UP_LIMIT_MS = 120_000;

export async function benchLedgerCore(
  database: BenchDatabase,
  options: LedgerCoreOptions,
): Promise<{ rows: LedgerCoreRow[]; live: LiveProjectionFigures }> {
  const maxClients = Math.max(...options.clientCounts);
  const db = createDatabase<unknown>({
    connectionString: database.url,
    maxConnections: maxClients + 4,
    applicationName: 'bench-ledger',
  });
  const boss = createJobBoss(database.url, { supervise: false, schedule: false, max: 2 });
  await boss.start();
  const ledger = createWiredLedger(tablesView<LedgerTables>(db));
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
    const rows: LedgerCoreRow[] = [];
    for (const distribution of ['uniform', 'hot'] as const) {
      const population = distribution === 'uniform' ? options.wallets : options.hotWallets;
      for (const clients of options.clientCounts) {
        const samples = {
          transfer: [] as ThroughputResult[],
          ceiling: [] as ThroughputResult[],
          minimal: [] as ThroughputResult[],
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
            await run(() => {
              const [from, to] = pick();
              return sql`select bench.minimal_transfer(${from}, ${to}, 100)`.execute(db);
            }),
          );
          samples.batched.push(await run(() => batchedMinimal(pick())));
          samples.transfer.push(await run(() => ledgerTransfer(ledger, pick())));
        }
        const perSecond = (results: readonly ThroughputResult[]) =>
          median(results.map((result) => result.operationsPerSecond));
        const errors = (results: readonly ThroughputResult[]) =>
          results.reduce((sum, result) => sum + result.errors, 0);
        const transfers = perSecond(samples.transfer);
        const row: LedgerCoreRow = {
          distribution,
          clients,
          transfersPerSecond: transfers,
          commitCeilingPerSecond: perSecond(samples.ceiling),
          minimalTransferPerSecond: perSecond(samples.minimal),
          batchedMinimalPerSecond: perSecond(samples.batched),
          ratioToMinimal: transfers / perSecond(samples.minimal),
          ratioToBatchedMinimal: transfers / perSecond(samples.batched),
          ratioToCeiling: transfers / perSecond(samples.ceiling),
          transferErrors: errors(samples.transfer),
          baselineErrors: errors(samples.ceiling) + errors(samples.minimal) + errors(samples.batched),
        };
        options.log(
          `B1 ${distribution} x${clients}: ${row.transfersPerSecond.toFixed(0)}/s (minimal ${row.minimalTransferPerSecond.toFixed(0)}/s, ` +
            `batched minimal ${row.batchedMinimalPerSecond.toFixed(0)}/s, ceiling ${row.commitCeilingPerSecond.toFixed(0)}/s; errors ${row.transferErrors}/${row.baselineErrors})`,
        );
        rows.push(row);
      }
    }
    const uniformMinimal = rows.find((row) => row.distribution === 'uniform' && row.clients === maxClients);
    live.ratioToMinimal = live.transfersPerSecond / (uniformMinimal?.minimalTransferPerSecond ?? Number.NaN);
    return { rows, live };
  } finally {
    await ledger.wakeUps.flush();
    await boss.stop({ graceful: false });
    await db.destroy();
  }
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
  try {
    options.log('B1 with projections live: starting the worker and waiting for it to catch up...');
    await cluster.spawn('worker', 'bench-b1-worker');
    await caughtUp(db);
    const pick = pairs(options.wallets, 7);
    const seconds = (options.durationMs * options.repeats) / 1000;
    const result = await measureThroughput(clients, options.durationMs * options.repeats, () =>
      ledgerTransfer(ledger, pick()),
    );
    await ledger.wakeUps.flush();
    const stopped = performance.now();
    const status = await projectionStatus(db);
    const eventsBehindAtEnd = Math.max(0, ...status.projections.map((p) => Number(p.eventsBehind)));
    const secondsBehindAtEnd = Math.max(0, ...status.projections.map((p) => p.secondsBehind));
    await caughtUp(db);
    const figures: LiveProjectionFigures = {
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
    return figures;
  } finally {
    await cluster.stopAll();
  }
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
      transferId: randomUUID(),
      fromAccountId: walletId(from),
      toAccountId: walletId(to),
      amountPaise: 100n,
      reference: 'bench',
    },
    { actorId: walletId(from), idempotencyKey: randomUUID() },
  );
}

function walletId(index: number): string {
  return `bench-${index}`;
}

/** Two distinct wallets drawn uniformly from the first `population`. */
function pairs(population: number, seed: number): () => [number, number] {
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
