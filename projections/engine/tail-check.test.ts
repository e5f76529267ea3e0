/**
 * The live projector's "anything left after this checkpoint?" check runs on every batch: it
 * must read the (tx_id, position) index, never the whole log, whatever plan the function's
 * cached (generic) statement gets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';

let testDb: TestDatabase<unknown>;
let client: pg.Client;

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
  // The owner: the runtime may only append through the ledger's functions.
  client = new pg.Client(testDb.ownerUrl);
  await client.connect();
  // A log of 5,000 events (the check's reads do not care what they are), analyzed.
  await client.query(`insert into ledger.events (stream_id, stream_version, type, data)
    select 'tail-check-' || g, 0, 'TailCheck', '{}'::jsonb from generate_series(1, 5000) g`);
  await client.query('analyze ledger.events');
});

afterAll(async () => {
  await client.end();
  await testDb.drop();
});

async function tail(offset: number): Promise<{ tx: string; position: string }> {
  const { rows } = await client.query<{ tx: string; position: string }>(
    'select e.tx_id::text as tx, e.position::text as position from ledger.events e order by e.tx_id desc, e.position desc offset $1 limit 1',
    [offset],
  );
  const row = rows[0];
  if (!row) throw new Error('no events');
  return row;
}

describe('projector.has_events_after', () => {
  it('answers from the index, with no sequential scan of the log, under a generic plan', async () => {
    const beforeLast = await tail(3);
    const last = await tail(0);
    await client.query('begin');
    try {
      await client.query('set local plan_cache_mode = force_generic_plan');
      const answers: boolean[] = [];
      for (let call = 0; call < 8; call++) {
        for (const checkpoint of [beforeLast, last]) {
          const { rows } = await client.query<{ more: boolean }>(
            'select projector.has_events_after($1::xid8, $2::bigint) as more',
            [checkpoint.tx, checkpoint.position],
          );
          answers.push(rows[0]?.more ?? false);
        }
      }
      expect(answers.every((more, index) => more === (index % 2 === 0))).toBe(true);
      const { rows } = await client.query<{ seq_scan: string }>(
        "select seq_scan::text from pg_stat_xact_user_tables where relid = 'ledger.events'::regclass",
      );
      expect(Number(rows[0]?.seq_scan ?? 0)).toBe(0);
    } finally {
      await client.query('rollback');
    }
  });
});
