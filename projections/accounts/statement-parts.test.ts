/**
 * A statement is read in two parts (projections/accounts/queries.ts): an account's first
 * STATEMENT_LINES_TIMED_AFTER lines through the primary key, the rest through the time index,
 * which holds only those (migration 0019). Whatever the filters, the two parts give the lines,
 * in order and up to the limit, that one plain query of all of the account's lines gives - for a
 * statement shorter than the bound and for one past it, with a date range on either side of
 * the bound or across it, and with lines whose times are out of sequence (a transaction that
 * began earlier took the wallet's lock later).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { readViews } from '../tables.ts';
import { readStatement, STATEMENT_LINES_TIMED_AFTER, type StatementFilters } from './queries.ts';

const LONG = STATEMENT_LINES_TIMED_AFTER + 600;
const SHORT = 300;
const START = new Date('2026-03-01T00:00:00+05:30');
const MINUTE = 60_000;

let testDb: TestDatabase<unknown>;

/** Line `sequence`'s time: every 20 minutes, but each 97th line a quarter of an hour before the one before it. */
function recordedAt(sequence: number): Date {
  const late = sequence % 97 === 0 ? -35 : 0;
  return new Date(START.getTime() + (sequence * 20 + late) * MINUTE);
}

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>({ as: 'owner' });
  for (const [accountId, lines] of [
    ['long', LONG],
    ['short', SHORT],
  ] as const) {
    const times = Array.from({ length: lines }, (_, index) => recordedAt(index + 1).toISOString());
    await sql`
      insert into read.statement_lines (account_id, position, tx_id, sequence, event_type, stream_id, transaction_id,
                                        counterparty_id, counterparty_name, amount_paise, balance_after_paise, recorded_at)
      select ${accountId}, s, s::text::xid8, s, case when s % 3 = 0 then 'DepositSettled' else 'TransferCompleted' end,
             'transfer-' || s, 't' || s, 'other', 'Other', case when s % 2 = 0 then 100 else -40 end, s * 30,
             (${times}::timestamptz[])[s]
        from generate_series(1, ${lines}) s`.execute(testDb.db);
  }
});

afterAll(async () => {
  await testDb.drop();
});

/** The same filters as one plain query over the account's lines. */
async function plainStatement(accountId: string, filters: StatementFilters): Promise<number[]> {
  const { rows } = await sql<{ sequence: string }>`
    select sequence from read.statement_lines
     where account_id = ${accountId}
       and sequence > ${filters.afterSequence ?? 0}
       and recorded_at >= coalesce(${filters.since ?? null}::timestamptz, '-infinity')
       and recorded_at < coalesce(${filters.until ?? null}::timestamptz, 'infinity')
       and (${filters.eventTypes ?? null}::text[] is null or event_type = any (${filters.eventTypes ?? null}::text[]))
       and (${filters.direction ?? null}::text is null
            or (${filters.direction ?? null} = 'credit' and amount_paise > 0)
            or (${filters.direction ?? null} = 'debit' and amount_paise < 0))
     order by sequence limit ${filters.limit ?? 10_000}`.execute(testDb.db);
  return rows.map((row) => Number(row.sequence));
}

/** From line `first`'s time to line `last`'s (exclusive). */
function between(first: number, last: number): Pick<StatementFilters, 'since' | 'until'> {
  return { since: recordedAt(first), until: recordedAt(last) };
}

const bound = STATEMENT_LINES_TIMED_AFTER;
const cases: [string, StatementFilters][] = [
  ['every line', {}],
  ['a range before the bound', between(100, 250)],
  ['a range across the bound', between(bound - 60, bound + 60)],
  ['a range past the bound', between(bound + 100, bound + 400)],
  ['from a date on', { since: recordedAt(bound - 5) }],
  ['up to a date', { until: recordedAt(bound + 5) }],
  [
    'a page after a sequence, across the bound',
    { ...between(bound - 60, bound + 300), afterSequence: 1990n, limit: 25 },
  ],
  ['a page after the bound', { afterSequence: BigInt(bound + 10), limit: 7 }],
  [
    'money in, one type, across the bound',
    { ...between(bound - 90, bound + 90), direction: 'credit', eventTypes: ['DepositSettled'] },
  ],
  ['money out, the first few', { direction: 'debit', limit: 3 }],
];

describe('a statement read in two parts', () => {
  for (const accountId of ['long', 'short'])
    for (const [name, filters] of cases)
      it(`gives the plain query's lines: ${accountId}, ${name}`, async () => {
        const lines = await readStatement(readViews(testDb.db), accountId, filters);
        const expected = await plainStatement(accountId, filters);
        expect(lines.map((line) => Number(line.sequence))).toEqual(expected);
        if (accountId === 'long') expect(expected.length).toBeGreaterThan(0);
      });
});
