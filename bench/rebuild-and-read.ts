/**
 * B4 replay and B5 reads, on one seeded log:
 *   B4 - events/s rebuilding every projection from the first event (the code behind
 *        `npm run ledger -- replay`), from N events;
 *   B5 - p50/p99 of a history page and of a history search for one user who takes part in
 *        a tenth of the events, through the query functions the API uses.
 * The log is seeded through `ledger.append` itself (every rule: funds, zero sum, stream
 * versions, account kinds), many appends per statement: `select ledger.append(...) from
 * jsonb_to_recordset($1)`, so a batch costs one round trip and one commit.
 */
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { createDatabase, tablesView } from '../platform/database.ts';
import { createLedger, rupees, type LedgerTables } from '../ledger/index.ts';
import { PROJECTIONS } from '../projections/registry.ts';
import { replayProjection } from '../projections/replay.ts';
import { readHistoryPage } from '../projections/queries.ts';
import type { ReadTables } from '../projections/tables.ts';
import { generateAppends, seededRandom, type Append } from '../projections/testing/random-ledger.ts';
import { median, percentile, type BenchDatabase } from './harness.ts';

export interface ReplayFigures {
  events: number;
  seedSeconds: number;
  projections: { name: string; events: number; seconds: number; eventsPerSecond: number }[];
  /** Events in the log / seconds to rebuild every projection (one after another). */
  eventsPerSecond: number;
  seconds: number;
}

export interface ReadFigures {
  query: 'history page' | 'history search';
  userRows: number;
  totalRows: number;
  samples: number;
  p50Ms: number;
  p99Ms: number;
}

export interface RebuildAndReadOptions {
  /** Events in the seeded log (1,000,000 in the full run). */
  events: number;
  /** The read user's share of the events (0.1: 100,000 of 1,000,000). */
  hubShare: number;
  samples: number;
  log: (line: string) => void;
}

const WRITERS = 2;
const WALLETS_PER_WRITER = 500;
const HUB_PARTNERS = 100;
const APPENDS_PER_STATEMENT = 1_000;

export async function benchRebuildAndRead(database: BenchDatabase, options: RebuildAndReadOptions): Promise<{ replay: ReplayFigures; reads: ReadFigures[] }> {
  const db = createDatabase<unknown>({ connectionString: database.url, maxConnections: 4, applicationName: 'bench-replay' });
  try {
    const seedStarted = performance.now();
    const hub = await seedLog(db, database.url, options);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const replay = await rebuildAll(db, seedSeconds, options);
    // What autovacuum would have done by now on a live system: visibility map and statistics.
    await sql`vacuum analyze read.history`.execute(db);
    const reads = await measureReads(tablesView<ReadTables>(db), hub, options);
    return { replay, reads };
  } finally {
    await db.destroy();
  }
}

/** Opens the wallets, then appends random activity per writer group plus the hub's transfers. */
async function seedLog(db: Kysely<unknown>, url: string, options: RebuildAndReadOptions): Promise<{ id: string; rows: number }> {
  const ledger = createLedger({ db: tablesView<LedgerTables>(db) });
  const groups = Array.from({ length: WRITERS }, (_, g) => Array.from({ length: WALLETS_PER_WRITER }, (_, i) => `seed-${g}-${i}`));
  const hub = 'seed-hub';
  const partners = Array.from({ length: HUB_PARTNERS }, (_, i) => `seed-partner-${i}`);
  const opened = [...groups.flat(), hub, ...partners];
  options.log(`B4 seeding: opening ${opened.length} wallets...`);
  for (let i = 0; i < opened.length; i += 16) {
    await Promise.all(opened.slice(i, i + 16).map((id) => ledger.openWallet({ accountId: id, displayName: `Seed ${id}` }, { actorId: 'bench' })));
  }
  for (const id of [hub, ...partners]) {
    await ledger.completeCardDeposit({ depositId: `seed-${id}`, walletId: id, amountPaise: rupees(100_000), reference: 'seed', provider: 'bench', paymentId: id }, { actorId: 'bench' });
  }
  const already = opened.length + 1 + partners.length;
  const hubTransfers = Math.round(options.events * options.hubShare);
  const perWriter = Math.max(1, Math.floor((options.events - already - hubTransfers) / WRITERS));
  options.log(`B4 seeding: ${(perWriter * WRITERS + hubTransfers).toLocaleString()} appends through ledger.append (${hubTransfers.toLocaleString()} with the read user)...`);
  const streams: Append[][] = [
    ...groups.map((wallets, g) => generateAppends(`g${g}-`, wallets, perWriter, seededRandom(100 + g))),
    hubAppends(hub, partners, hubTransfers),
  ];
  await Promise.all(streams.map((appends) => appendInBatches(url, appends)));
  return { id: hub, rows: hubTransfers + 2 };
}

/** Transfers between the hub and its partners, paired so every balance returns to where it was. */
function hubAppends(hub: string, partners: readonly string[], count: number): Append[] {
  return Array.from({ length: count }, (_, n) => {
    const partner = partners[n % partners.length] as string;
    const [from, to] = Math.floor(n / partners.length) % 2 === 0 ? [hub, partner] : [partner, hub];
    const id = `hub-${n}`;
    const amount = 100 + (n % 50);
    return {
      streamId: `transfer-${id}`,
      expectedVersion: -1,
      events: [
        {
          type: 'TransferCompleted',
          data: { transferId: id, fromAccountId: from, toAccountId: to, amountPaise: String(amount), reference: `${['rent', 'food', 'gift', 'bills'][n % 4]} ${n}` },
          postings: [
            { account: from, amount: String(-amount) },
            { account: to, amount: String(amount) },
          ],
        },
      ],
    };
  });
}

async function appendInBatches(url: string, appends: readonly Append[]): Promise<void> {
  const client = new pg.Client({ connectionString: url, application_name: 'bench-seed' });
  await client.connect();
  try {
    for (let i = 0; i < appends.length; i += APPENDS_PER_STATEMENT) {
      const batch = appends.slice(i, i + APPENDS_PER_STATEMENT).map((append) => ({ s: append.streamId, v: append.expectedVersion, e: append.events }));
      // Row order is append order: later appends of a batch may expect versions that earlier ones wrote.
      await client.query(
        `select count(ledger.append(a.s, a.v, a.e, '{"command":"bench-seed"}'::jsonb, null, '{}'::jsonb))
           from jsonb_to_recordset($1::jsonb) as a(s text, v int, e jsonb)`,
        [JSON.stringify(batch)],
      );
    }
  } finally {
    await client.end();
  }
}

async function rebuildAll(db: Kysely<unknown>, seedSeconds: number, options: RebuildAndReadOptions): Promise<ReplayFigures> {
  const { rows } = await sql<{ n: bigint }>`select count(*) as n from ledger.events`.execute(db);
  const events = Number(rows[0]?.n ?? 0n);
  options.log(`B4 replay: ${events.toLocaleString()} events (seeded in ${seedSeconds.toFixed(0)} s), rebuilding ${PROJECTIONS.length} projections...`);
  const started = performance.now();
  const projections: ReplayFigures['projections'] = [];
  for (const projection of PROJECTIONS) {
    const report = await replayProjection(db, projection.name);
    projections.push({ name: projection.name, events: report.events, seconds: report.seconds, eventsPerSecond: report.events / report.seconds });
    options.log(`B4 replay ${projection.name}: ${report.events.toLocaleString()} events in ${report.seconds.toFixed(1)} s`);
  }
  const seconds = (performance.now() - started) / 1000;
  return { events, seedSeconds, projections, eventsPerSecond: events / seconds, seconds };
}

async function measureReads(db: Kysely<ReadTables>, hub: { id: string }, options: RebuildAndReadOptions): Promise<ReadFigures[]> {
  const count = async (accountId?: string): Promise<number> => {
    let query = db.selectFrom('read.history').select((eb) => eb.fn.countAll<bigint>().as('n'));
    if (accountId) query = query.where('account_id', '=', accountId);
    return Number((await query.executeTakeFirstOrThrow()).n);
  };
  const userRows = await count(hub.id);
  const totalRows = await count();
  const lastPage = Math.max(1, Math.ceil(userRows / 10));
  const random = seededRandom(7);
  // First pages most, as people read them; some deep pages and the last one.
  const pageOf = (i: number): number => (i % 10 === 9 ? lastPage : i % 10 >= 7 ? 1 + Math.floor(random() * lastPage) : 1 + (i % 5));
  const terms = ['rent', 'gift 12', 'hub-4', 'FOOD', 'no such reference'];
  const timed = async (run: (i: number) => Promise<unknown>): Promise<number[]> => {
    for (let i = 0; i < 20; i++) await run(i); // warm the cache and the plans
    const samples: number[] = [];
    for (let i = 0; i < options.samples; i++) {
      const started = performance.now();
      await run(i);
      samples.push(performance.now() - started);
    }
    return samples;
  };
  const pages = await timed((i) => readHistoryPage(db, { accountId: hub.id, page: pageOf(i) }));
  const searches = await timed((i) => readHistoryPage(db, { accountId: hub.id, page: 1 + (i % 3), search: terms[i % terms.length] }));
  const figures = (query: ReadFigures['query'], samples: number[]): ReadFigures => ({ query, userRows, totalRows, samples: samples.length, p50Ms: median(samples), p99Ms: percentile(samples, 99) });
  const result = [figures('history page', pages), figures('history search', searches)];
  for (const row of result) options.log(`B5 ${row.query}: p50 ${row.p50Ms.toFixed(1)} ms, p99 ${row.p99Ms.toFixed(1)} ms (${row.userRows.toLocaleString()} of ${row.totalRows.toLocaleString()} rows)`);
  return result;
}
