/**
 * B1, ledger core: transfers/s through the command functions (no HTTP) at 1, 8 and 32
 * clients, over 10,000 wallets (uniform) and over 10 hot wallets, against two baselines
 * measured in the same run on the same database:
 *   (a) commit ceiling - a transaction inserting one row;
 *   (b) minimal transfer - one SQL function call updating two balance rows and inserting
 *       one entry: the least any ledger transfer can cost on Postgres.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { createDatabase, tablesView } from '../platform/database.ts';
import { createJobBoss } from '../platform/jobs.ts';
import { createWiredLedger } from '../runtime/ledger.ts';
import { createLedger, rupees, type LedgerTables } from '../ledger/index.ts';
import { measureThroughput, median, seededRandom, type BenchDatabase } from './harness.ts';

export interface LedgerCoreRow {
  distribution: 'uniform' | 'hot';
  clients: number;
  transfersPerSecond: number;
  commitCeilingPerSecond: number;
  minimalTransferPerSecond: number;
  ratioToMinimal: number;
  ratioToCeiling: number;
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

export async function benchLedgerCore(database: BenchDatabase, options: LedgerCoreOptions): Promise<LedgerCoreRow[]> {
  const maxClients = Math.max(...options.clientCounts);
  const db = createDatabase<unknown>({
    connectionString: database.url,
    maxConnections: maxClients + 2,
    applicationName: 'bench-ledger',
  });
  const boss = createJobBoss(database.url, { supervise: false, schedule: false, max: 2 });
  await boss.start();
  const ledger = createWiredLedger(tablesView<LedgerTables>(db));
  try {
    options.log(`seeding ${options.wallets} wallets...`);
    await seedWallets(db, options.wallets);
    await createBaselines(db, options.wallets);
    const rows: LedgerCoreRow[] = [];
    for (const distribution of ['uniform', 'hot'] as const) {
      const population = distribution === 'uniform' ? options.wallets : options.hotWallets;
      for (const clients of options.clientCounts) {
        const samples = { transfer: [] as number[], ceiling: [] as number[], minimal: [] as number[] };
        for (let repeat = 0; repeat < options.repeats; repeat++) {
          const pick = pairs(population, repeat * 1000 + clients);
          samples.ceiling.push(
            (
              await measureThroughput(clients, options.durationMs, async () => {
                await db.transaction().execute(async (trx) => {
                  await sql`insert into bench.commit_ceiling (v) values (1)`.execute(trx);
                });
              })
            ).operationsPerSecond,
          );
          samples.minimal.push(
            (
              await measureThroughput(clients, options.durationMs, async () => {
                const [from, to] = pick();
                await sql`select bench.minimal_transfer(${from}, ${to}, 100)`.execute(db);
              })
            ).operationsPerSecond,
          );
          samples.transfer.push(
            (
              await measureThroughput(clients, options.durationMs, async () => {
                const [from, to] = pick();
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
              })
            ).operationsPerSecond,
          );
        }
        const row: LedgerCoreRow = {
          distribution,
          clients,
          transfersPerSecond: median(samples.transfer),
          commitCeilingPerSecond: median(samples.ceiling),
          minimalTransferPerSecond: median(samples.minimal),
          ratioToMinimal: median(samples.transfer) / median(samples.minimal),
          ratioToCeiling: median(samples.transfer) / median(samples.ceiling),
        };
        options.log(
          `B1 ${distribution} x${clients}: ${row.transfersPerSecond.toFixed(0)}/s (minimal ${row.minimalTransferPerSecond.toFixed(0)}/s, ceiling ${row.commitCeilingPerSecond.toFixed(0)}/s)`,
        );
        rows.push(row);
      }
    }
    return rows;
  } finally {
    await boss.stop({ graceful: false });
    await db.destroy();
  }
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
  `.execute(db);
  await sql`insert into bench.balances (id, balance) select g, 1000000000 from generate_series(0, ${wallets - 1}) g on conflict do nothing`.execute(
    db,
  );
}
