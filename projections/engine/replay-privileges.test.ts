/**
 * Replay's DDL runs in the `replay.*` SQL functions as the owner (projections/engine/replay.sql), on behalf
 * of the runtime role. They touch only the projections' own tables: their list matches the
 * projections' definitions (a new projection table must be added there), and any other table
 * or projection name, or an attempt to smuggle SQL through one, is refused.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../platform/database.ts';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { PROJECTIONS } from '../index.ts';

let testDb: TestDatabase<unknown>;

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
});

afterAll(async () => {
  await testDb.drop();
});

describe('the tables replay may rebuild', () => {
  it("are exactly the projections' own tables", async () => {
    // The list is the owner's: the runtime role may call the functions, not read or change it.
    const owner = createDatabase<unknown>({ connectionString: testDb.ownerUrl, maxConnections: 1 });
    const { rows } = await sql<{ projection: string; table_name: string }>`
      select projection, table_name from replay.projection_tables order by projection, table_name`.execute(owner);
    await owner.destroy();
    const expected = PROJECTIONS.flatMap((projection) =>
      projection.tables.map((table) => ({ projection: projection.name, table_name: table })),
    );
    const byKey = (
      a: { projection: string; table_name: string },
      b: { projection: string; table_name: string },
    ): number => `${a.projection}.${a.table_name}`.localeCompare(`${b.projection}.${b.table_name}`);
    expect(rows.sort(byKey)).toEqual(expected.sort(byKey));
  });
});

describe('the replay functions refuse', () => {
  it.each([
    ['an unknown projection', sql`select replay.reset_rebuild_schema('ledger')`],
    ['a projection name carrying SQL', sql`select replay.reset_rebuild_schema('history; drop schema ledger cascade')`],
    ['the checkpoints table', sql`select replay.swap_in_table('history', 'checkpoints')`],
    ["another projection's table", sql`select replay.swap_in_table('history', 'balances')`],
    ['a ledger table', sql`select replay.create_rebuild_table('accounts', 'events', true)`],
    [
      'an index the live table does not have',
      sql`select replay.build_rebuild_index('history', 'history', 'events_pkey')`,
    ],
  ])('%s', async (_name, statement) => {
    const error = await statement.execute(testDb.db).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect((error as { code?: string }).code, String(error)).toBe('22023');
  });

  it('to anyone but the runtime role and the owner (no EXECUTE for PUBLIC)', async () => {
    const { rows } = await sql<{ name: string }>`
      select p.oid::regprocedure::text as name from pg_proc p
       where p.pronamespace in ('replay'::regnamespace, 'ledger'::regnamespace) and p.prorettype <> 'trigger'::regtype
         and has_function_privilege('public', p.oid, 'EXECUTE')`.execute(testDb.db);
    expect(rows).toEqual([]);
  });
});
