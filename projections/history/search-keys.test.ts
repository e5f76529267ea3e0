/**
 * The history search's keys (projections/history/search-keys.sql). `read.search_keys` is the
 * GIN index's expression and runs on every history row's insert, so it is written for speed
 * (a PL/pgSQL loop); the keys it gives must stay the ones the index already holds and the ones
 * a search looks up (`read.search_text_keys`, SQL): the same hash of the account and each
 * trigram, as a one-statement definition gives them. Otherwise rows written before a change
 * and after it would answer the same search differently.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';

let testDb: TestDatabase<unknown>;

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
});

afterAll(async () => {
  await testDb.drop();
});

/** References and names as people write them: words, digits, punctuation, Hindi, blanks. */
const TEXTS = [
  'rent',
  'bench bench-123',
  'Dinner at Saravana Bhavan Priya Sharma',
  'UPI top-up',
  '₹4,000.50 for the trip',
  'किराया अक्टूबर',
  'Chai ☕ with Ravi',
  'ab',
  '',
  '   ',
  "O'Brien & sons / invoice #42",
  'x'.repeat(300),
];

const ACCOUNTS = ['0193a1b2-7c4d-7e8f-9a0b-1c2d3e4f5a6b', 'funding-card', 'bench-7'];

describe('read.search_keys', () => {
  it("gives, for every text and account, the keys of the definition's one statement, in its order", async () => {
    const { rows } = await sql<{ account: string; text: string; keys: string; expected: string }>`
      select a.account, t.text, read.search_keys(a.account, t.text)::text as keys,
             array(select (hashtext(a.account)::int8 << 32) | (hashtext(g)::int8 & 4294967295)
                     from unnest(show_trgm(t.text)) as g
                    where strpos(g, ' ') = 0)::text as expected
        from unnest(${ACCOUNTS}::text[]) as a(account), unnest(${TEXTS}::text[]) as t(text)`.execute(testDb.db);
    expect(rows).toHaveLength(ACCOUNTS.length * TEXTS.length);
    for (const row of rows) expect(row.keys, `${row.account}: '${row.text}'`).toBe(row.expected);
    // Not vacuous: most texts have keys, and accounts key the same text apart.
    expect(rows.filter((row) => row.keys !== '{}').length).toBeGreaterThan(rows.length / 2);
    const rent = rows.filter((row) => row.text === 'rent').map((row) => row.keys);
    expect(new Set(rent).size).toBe(ACCOUNTS.length);
  });

  it('holds every key a search of a piece of the text looks up (read.search_text_keys)', async () => {
    const { rows } = await sql<{ text: string; piece: string; found: boolean }>`
      select t.text, p.piece,
             read.search_text_keys('bench-7', p.piece) <@ read.search_keys('bench-7', t.text) as found
        from unnest(${TEXTS}::text[]) as t(text),
             lateral (select substr(t.text, i, n) as piece
                        from generate_series(1, char_length(t.text)) as i, generate_series(3, 8) as n
                       where i + n - 1 <= char_length(t.text)) as p`.execute(testDb.db);
    expect(rows.length).toBeGreaterThan(500);
    expect(rows.filter((row) => !row.found)).toEqual([]);
  });

  it('returns null for a null text, as the index expression expects of a strict function', async () => {
    const { rows } = await sql<{ keys: string | null }>`select read.search_keys('bench-7', null) as keys`.execute(
      testDb.db,
    );
    expect(rows[0]?.keys).toBeNull();
  });
});
