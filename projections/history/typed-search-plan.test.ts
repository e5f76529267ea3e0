/**
 * A search of one type that takes the keys way finds its candidates through the search keys'
 * index (projections/history/queries.ts, `lookupFilters`): with the type as an indexable test,
 * the planner read every row of the type through history_by_type and tested the keys on each
 * (16 ms on 3,000 rows of the type against 0.4 ms, growing with the history), and once (a
 * clean-clone run, decision 0026) it read the user's rows through history_transaction_prefix and
 * tested the keys on each (33 ms). Checked on the plan of the statement the search sends, over a
 * history of 4,000 rows with statistics; and with bitmap scans priced out, so that what the
 * planner could fall back to shows: never a B-tree scan of the user's rows.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import { Kysely, PostgresDialect, type CompiledQuery } from 'kysely';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { tablesView } from '../../platform/database.ts';
import { createLedger, rupees, type LedgerTables } from '../../ledger/index.ts';
import { openFundedWallets } from '../../test/funded-wallets.ts';
import { drainAll, readHistoryPage, readViews } from '../index.ts';

const WORDS = ['lunch', 'rent', 'movie', 'gift', 'taxi', 'groceries', 'birthday', 'coffee'];

let testDb: TestDatabase<unknown>;
let pool: pg.Pool;
let db: Kysely<unknown>;
const sent: CompiledQuery[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
  const ledger = createLedger({ db: tablesView<LedgerTables>(testDb.db) });
  await openFundedWallets(ledger, ['asha', 'ravi'], rupees(100_000));
  // 3,000 payments from Asha and 1,000 to her; "zebra" in one reference of ~100.
  for (let n = 0; n < 4_000; n += 20) {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const at = n + i;
        const from = at % 4 === 0 ? 'ravi' : 'asha';
        return ledger.transfer(
          {
            transferId: `t${at}`,
            fromAccountId: from,
            toAccountId: from === 'asha' ? 'ravi' : 'asha',
            amountPaise: rupees(1 + (at % 50)),
            reference: `${WORDS[at % WORDS.length]}${at % 97 === 0 ? ' zebra' : ''}`,
          },
          { actorId: from },
        );
      }),
    );
  }
  await drainAll(testDb.db);
  pool = new pg.Pool({ connectionString: testDb.url, max: 2 });
  await pool.query('analyze read.history');
  db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: testDb.url, max: 2 }) }),
    log: (event) => {
      if (event.level === 'query') sent.push(event.query);
    },
  });
}, 180_000);

afterAll(async () => {
  await db.destroy();
  await pool.end();
  await testDb.drop();
});

/** The plan (text) of the statement a search sent last, run again with EXPLAIN ANALYZE, split at its CTEs. */
async function planOfSearch(
  type: 'debit' | undefined,
  search: string,
  settings = '',
): Promise<{ way: string | undefined; ctes: Map<string, string> }> {
  sent.length = 0;
  const page = await readHistoryPage(readViews(db), { accountId: 'asha', type, search, page: 1 });
  const statement = sent.at(-1);
  if (!statement) throw new Error('the search sent no statement');
  const client = await pool.connect();
  let rows: { 'QUERY PLAN': string }[];
  try {
    // Settings for this EXPLAIN only: a transaction's, gone at its end.
    await client.query('begin');
    if (settings) await client.query(settings);
    ({ rows } = await client.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, costs off) ${statement.sql}`,
      statement.parameters as unknown[],
    ));
  } finally {
    await client.query('rollback');
    client.release();
  }
  const ctes = new Map<string, string>();
  let current = 'main';
  for (const { 'QUERY PLAN': line } of rows) {
    const cte = /^\s*CTE (\w+)$/.exec(line);
    if (cte?.[1]) current = cte[1];
    ctes.set(current, `${ctes.get(current) ?? ''}${line}\n`);
  }
  return { way: page.searchWay, ctes };
}

it.each([
  ['a rare word', 'zebra'],
  ['a common word', 'lunch'],
])(
  'a search of one type for %s, the keys way, looks its candidates up in the search keys index',
  async (_what, text) => {
    const { way, ctes } = await planOfSearch('debit', text);
    expect(way).toBe('keys');
    const lookup = ctes.get('keyed') ?? '';
    expect(lookup).toContain('history_search_keys');
    expect(lookup).not.toContain('history_by_type');
    expect(lookup).not.toContain('Index Scan using');
  },
);

it.each([
  ['of one type', 'debit' as const],
  ['of every type', undefined],
])(
  'a search %s, with bitmap scans priced out, still never scans the user rows through a B-tree',
  async (_what, type) => {
    const { ctes } = await planOfSearch(type, 'zebra', 'set local enable_bitmapscan = off');
    const lookup = ctes.get('keyed') ?? '';
    expect(lookup).toContain('CTE keyed');
    expect(lookup).not.toContain('Index Scan using');
    expect(lookup).not.toContain('Index Only Scan using');
  },
);

it('a search of every type looks them up the same way', async () => {
  const { way, ctes } = await planOfSearch(undefined, 'zebra');
  expect(way).toBe('keys');
  expect(ctes.get('keyed') ?? '').toContain('history_search_keys');
  expect(ctes.get('keyed') ?? '').not.toContain('Index Scan using');
});
