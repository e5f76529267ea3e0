/**
 * The upgrade from before the squash: a database as the last release before it left it (its
 * schema, functions and history dumped in test/fixtures/before-the-squash.sql), with money moved
 * and projected through the functions of that time, is migrated by today's code. Nothing is lost, its history says it is at the
 * baseline, its schema, functions and the runtime role's privileges are a fresh database's, and
 * the ledger and projectors keep working on it. A history that stops part-way is refused.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createLedger, type LedgerTables, type Paise } from '../ledger/index.ts';
import { allQueues } from '../runtime/queues.ts';
import { installation } from '../runtime/installation.ts';
import { adminQuery, createTestDatabase, inDatabase, type TestDatabase } from '../test/database.ts';
import { openFundedWallets } from '../test/funded-wallets.ts';
import { createDatabase, withClient } from './database.ts';
import { installJobQueues } from './jobs.ts';
import { BASELINE_MIGRATION, migrateDatabase, pendingMigrations } from './migrate.ts';
import { runtimePrivilegeProblems } from './runtime-privileges.ts';
import { applyRuntimeGrants, ensureRuntimeRole } from './runtime-role.ts';
import { dumpSchema } from './schema-dump.ts';

const BEFORE_THE_SQUASH = new URL('../test/fixtures/before-the-squash.sql', import.meta.url);
/** The projections' names before migration 0009 (projection "statements" became "statement_days") and after. */
const PROJECTIONS_BEFORE = ['accounts', 'history', 'money_requests', 'statements'];
const PROJECTIONS = ['accounts', 'history', 'money_requests', 'statement_days'];
/** The versioned migrations after the baseline: an upgraded database runs them like any other. */
const AFTER_BASELINE = (await fs.readdir(fileURLToPath(new URL('../migrations/', import.meta.url))))
  .filter((file) => /^\d{4}_.+\.ts$/.test(file))
  .map((file) => file.replace(/\.ts$/, ''))
  .filter((name) => name > BASELINE_MIGRATION)
  .sort();

interface Scratch {
  ownerUrl: string;
  runtimeUrl: string;
  drop(): Promise<void>;
}

async function emptyDatabase(): Promise<Scratch> {
  const name = `t_legacy_${randomBytes(4).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  return {
    ownerUrl: inDatabase(inject('adminDatabaseUrl'), name),
    runtimeUrl: inDatabase(inject('runtimeDatabaseUrl'), name),
    drop: () => adminQuery(`drop database if exists ${name} with (force)`),
  };
}

/**
 * What `npm run migrate` of the last release before the squash left: the runtime role, that
 * release's schema and history, pg-boss's queues and the runtime's grants. With `stoppedAfter`,
 * a history that ends at that migration (only the history is read to refuse such a database).
 */
async function restoreAsBeforeTheSquash(ownerUrl: string, stoppedAfter?: string): Promise<void> {
  const db = createDatabase<unknown>({ connectionString: ownerUrl, maxConnections: 1 });
  try {
    await ensureRuntimeRole(db);
    const dump = await fs.readFile(BEFORE_THE_SQUASH, 'utf8');
    await withClient(ownerUrl, (client) => client.query(dump));
    if (stoppedAfter) {
      await sql`delete from public.kysely_migration where name > ${stoppedAfter}`.execute(db);
      return;
    }
    await installJobQueues(ownerUrl, allQueues);
    await applyRuntimeGrants(db, installation.schemaPolicies);
  } finally {
    await db.destroy();
  }
}

/** Every projection applied up to the end of the log (the projector's own call, as the runtime). */
async function project(db: Kysely<unknown>, projections: readonly string[]): Promise<void> {
  await vi.waitFor(
    async () => {
      let more = false;
      for (const projection of projections) {
        const { rows } = await sql<{ more: boolean; busy: boolean }>`
          select busy, more from projector.run_batch(${projection}, 1000)`.execute(db);
        more ||= rows[0]?.more !== false || rows[0]?.busy !== false;
      }
      if (more) throw new Error('the projections have not caught up yet');
    },
    { timeout: 30_000, interval: 50 },
  );
}

/** Every row of every table of ours, as text in a stable order. */
async function allRows(ownerUrl: string): Promise<Record<string, string[]>> {
  return withClient(ownerUrl, async (client) => {
    const { rows: tables } = await client.query<{ name: string }>(
      `select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = any($1) and c.relkind = 'r' order by 1`,
      [installation.schemas],
    );
    const contents: Record<string, string[]> = {};
    for (const { name } of tables) {
      const { rows } = await client.query<{ row: string }>(`select to_jsonb(t)::text as row from ${name} t order by 1`);
      contents[name] = rows.map((row) => row.row);
    }
    return contents;
  });
}

/**
 * The rows as migrations 0009 and 0010 leave them: read.statements is read.statement_lines,
 * projection "statements" is "statement_days" in the checkpoints and replay's table list, and an
 * idempotency record's request hash is bytes.
 */
function renamedBy0009(rows: Record<string, string[]>): Record<string, string[]> {
  // Migration 0010 keeps an idempotency record's request hash as bytes (to_jsonb shows them as \x and hex).
  const renamed = (row: string) =>
    row
      .replace('"projection": "statements"', '"projection": "statement_days"')
      .replace('"table_name": "statements"', '"table_name": "statement_lines"')
      .replace(/"request_hash": "([0-9a-f]{64})"/, '"request_hash": "\\\\x$1"');
  return Object.fromEntries(
    Object.entries(rows).map(([table, list]) => [
      table === 'read.statements' ? 'read.statement_lines' : table,
      // The new names sort where the old ones did (last of the projections, after 'directory').
      list.map(renamed),
    ]),
  );
}

/**
 * Each table's rows cut to the columns its rows had in `before`: a later migration may add a
 * column (migration 0007's read.history.failure_reason), and a row is kept when every value it
 * had is still there.
 */
function withColumnsOf(before: Record<string, string[]>, after: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(after).map(([table, rows]) => {
      const first = before[table]?.[0];
      if (!first) return [table, rows];
      const columns = Object.keys(JSON.parse(first) as Record<string, unknown>);
      const cut = (row: string) => {
        const values = JSON.parse(row) as Record<string, unknown>;
        return JSON.stringify(Object.fromEntries(columns.map((column) => [column, values[column]])));
      };
      return [table, rows.map(cut)];
    }),
  );
}

async function schemaOf(url: string): Promise<string> {
  return withClient(url, (client) => dumpSchema(client, installation.schemas));
}

async function moveMoney(runtimeUrl: string, prefix: string, projections: readonly string[]): Promise<void> {
  const db = createDatabase<LedgerTables>({ connectionString: runtimeUrl, maxConnections: 2 });
  try {
    for (const batching of [undefined, false] as const) {
      const ledger = createLedger({ db, ...(batching === false ? { batching } : {}) });
      const [a, b] = [`${prefix}-a-${String(batching)}`, `${prefix}-b-${String(batching)}`];
      await openFundedWallets(ledger, [a, b], 50_000n as Paise);
      await ledger.transfer(
        { transferId: `${a}-t1`, fromAccountId: a, toAccountId: b, amountPaise: 1_250n as Paise, reference: 'rent' },
        { actorId: a, idempotencyKey: `${a}-k1` },
      );
      await ledger.requestDeposit(
        {
          depositId: `${a}-d1`,
          walletId: a,
          amountPaise: 10_000n as Paise,
          method: 'upi',
          reference: 'top up',
          details: { upiId: 'x@bank' },
        },
        { actorId: a },
      );
      await ledger.requestMoney(
        { requestId: `${a}-r1`, requesterId: a, payerId: b, amountPaise: 700n as Paise, reference: 'lunch' },
        { actorId: a },
      );
    }
    await project(db as Kysely<unknown>, projections);
  } finally {
    await db.destroy();
  }
}

describe('a database migrated before the squash', () => {
  let legacy: Scratch;
  let fresh: TestDatabase<unknown>;
  let before: Record<string, string[]>;

  beforeAll(async () => {
    legacy = await emptyDatabase();
    await restoreAsBeforeTheSquash(legacy.ownerUrl);
    await moveMoney(legacy.runtimeUrl, 'old', PROJECTIONS_BEFORE);
    // What a replay of projection "statements" leaves: its run, and (had it crashed) its rebuild schema.
    await withClient(legacy.ownerUrl, (client) =>
      client.query(`insert into audit.replay_runs (projection, state, requested_by) values ('statements', 'done', 'admin');
                    create schema read_rebuild_statements`),
    );
    before = renamedBy0009(await allRows(legacy.ownerUrl));
    fresh = await createTestDatabase({ as: 'owner' });
  });

  afterAll(async () => {
    await fresh?.drop();
    await legacy?.drop();
  });

  it('upgrades in one run with every row kept, recorded as at the baseline, then the later migrations', async () => {
    expect(before['ledger.events']?.length).toBeGreaterThan(10);
    expect(before['read.history']?.length).toBeGreaterThan(4);
    expect(await pendingMigrations(legacy.ownerUrl)).toEqual([BASELINE_MIGRATION, ...AFTER_BASELINE]);

    const report = await migrateDatabase(legacy.ownerUrl, installation, { runtimeUrl: legacy.runtimeUrl });

    expect(report.applied).toEqual(AFTER_BASELINE);
    const {
      ['read.event_actors']: actors,
      ['audit.disputes']: disputes,
      ['read.history_keying']: keying,
      ...kept
    } = await allRows(legacy.ownerUrl);
    // Migration 0008 made the disputes queue, and 0022 history's keying list: new, so empty.
    expect(disputes).toEqual([]);
    expect(keying).toEqual([]);
    // Every row kept; migrations 0003 and 0022 registered their tables with the history projection's others.
    const registered = ['event_actors', 'history_keying'].map(
      (table) => `{"projection": "history", "table_name": "${table}"}`,
    );
    expect(
      withColumnsOf(before, {
        ...kept,
        'replay.projection_tables': (kept['replay.projection_tables'] ?? []).filter((row) => !registered.includes(row)),
      }),
    ).toEqual(withColumnsOf(before, before));
    expect(kept['replay.projection_tables']).toEqual(expect.arrayContaining(registered));
    // Migration 0009 renamed the replay run's projection (above) and the crashed replay's rebuild schema.
    expect(kept['audit.replay_runs']?.map((row) => (JSON.parse(row) as { projection: string }).projection)).toEqual([
      'statement_days',
    ]);
    const rebuildSchemas = await withClient(legacy.ownerUrl, async (client) => {
      const { rows } = await client.query<{ name: string }>(
        `select nspname as name from pg_namespace where nspname like 'read\\_rebuild\\_%' order by 1`,
      );
      return rows.map((row) => row.name);
    });
    expect(rebuildSchemas).toEqual(['read_rebuild_statement_days']);
    // Migration 0003 filled who made each event from the log, up to the history projection's checkpoint (all of it here).
    const actorsFromLog = await withClient(legacy.ownerUrl, async (client) => {
      const { rows } = await client.query<{ events: number; matching: number }>(`
        select (select count(*)::int from ledger.events) as events,
               (select count(*)::int from read.event_actors a join ledger.events e using (position)
                 where e.metadata->>'actorId' = a.actor_id) as matching`);
      return rows[0];
    });
    expect(actorsFromLog).toEqual({ events: before['ledger.events']?.length, matching: actors?.length });
    const history = await withClient(legacy.ownerUrl, (client) =>
      client.query<{ name: string }>('select name from public.kysely_migration order by name'),
    );
    expect(history.rows.map((row) => row.name)).toEqual([BASELINE_MIGRATION, ...AFTER_BASELINE]);
    expect(await pendingMigrations(legacy.runtimeUrl)).toEqual([]);
  });

  it("then has a fresh database's schema, functions, seed rows and runtime privileges", async () => {
    expect(await schemaOf(legacy.ownerUrl)).toEqual(await schemaOf(fresh.ownerUrl));
    const functions = `
      select n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as name,
             pg_get_functiondef(p.oid) as definition, p.proacl::text as acl
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname in ('ledger', 'projector', 'replay', 'read') order by 1`;
    const [upgraded, created] = await Promise.all(
      [legacy.ownerUrl, fresh.ownerUrl].map((url) =>
        withClient(url, async (client) => (await client.query(functions)).rows),
      ),
    );
    expect(upgraded).toEqual(created);
    expect(upgraded?.length).toBe(56);
    const seeds = `
      select (select json_agg(projection order by projection) from read.checkpoints) as checkpoints,
             (select json_agg(table_name order by table_name) from replay.projection_tables) as replay_tables,
             (select json_agg(id order by id) from ledger.accounts where kind = 'funding') as funding`;
    const [oldSeeds, newSeeds] = await Promise.all(
      [legacy.ownerUrl, fresh.ownerUrl].map((url) =>
        withClient(url, async (client) => (await client.query(seeds)).rows),
      ),
    );
    expect(oldSeeds).toEqual(newSeeds);
    const runtime = createDatabase<unknown>({ connectionString: legacy.runtimeUrl, maxConnections: 1 });
    try {
      expect(await runtimePrivilegeProblems(runtime, installation.schemaPolicies)).toEqual([]);
    } finally {
      await runtime.destroy();
    }
  });

  it('keeps working: money moves and is projected through the new functions, and a second run changes nothing', async () => {
    await moveMoney(legacy.runtimeUrl, 'new', PROJECTIONS);
    const balances = await withClient(legacy.ownerUrl, async (client) => {
      const { rows } = await client.query<{ agree: boolean; wallets: number }>(`
        select bool_and(b.balance_paise = a.balance) as agree, count(*)::int as wallets
          from ledger.accounts a join read.balances b on b.account_id = a.id where a.kind = 'wallet'`);
      return rows[0];
    });
    expect(balances).toEqual({ agree: true, wallets: 8 });
    const schema = await schemaOf(legacy.ownerUrl);
    expect((await migrateDatabase(legacy.ownerUrl, installation, { runtimeUrl: legacy.runtimeUrl })).applied).toEqual(
      [],
    );
    expect(await schemaOf(legacy.ownerUrl)).toBe(schema);
  });
});

describe('a database that stopped part-way through the squashed migrations', () => {
  it('is refused, saying to migrate it with a release from before the squash first', async () => {
    const partial = await emptyDatabase();
    try {
      await restoreAsBeforeTheSquash(partial.ownerUrl, '0010_runtime_role');
      await expect(migrateDatabase(partial.ownerUrl, installation)).rejects.toThrow(
        /stopped before migration 0011_pin_verifier, which is now part of 0001_baseline/,
      );
    } finally {
      await partial.drop();
    }
  });
});
