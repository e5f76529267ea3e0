/**
 * Least privilege, shown by trying: a database connected as the runtime login, as
 * the API, the workers and the CLI are, gets every statement that could change or remove
 * ledger rows, run DDL or switch triggers off refused for lack of privilege (SQLSTATE 42501,
 * not a trigger's WL011: the privilege stops it before any trigger runs), and can still do
 * all its work: read the ledger, append through the ledger's commands, write the read,
 * identity, audit and job tables, replay a projection.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, rupees, type Ledger, type LedgerTables } from '../ledger/index.ts';
import { drainAll, readHistoryPage, replayProjection, readViews } from '../projections/index.ts';
import { allCaughtUp, drainUntil } from '../test/read-model.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { TEST_RUNTIME_LOGIN } from '../test/logins.ts';
import { createDatabase, tablesView } from './database.ts';
import { createJobBoss } from './jobs.ts';
import { runtimePrivilegeProblems } from './runtime-privileges.ts';
import { installation } from '../runtime/installation.ts';

let testDb: TestDatabase<unknown>;
let owner: Kysely<unknown>;
let ledger: Ledger;
const as = (actorId: string) => ({ actorId });

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
  owner = createDatabase<unknown>({ connectionString: testDb.ownerUrl, maxConnections: 2 });
  ledger = createLedger({ db: tablesView<LedgerTables>(testDb.db) });
  await ledger.openWallet({ accountId: 'asha', displayName: 'Asha' }, as('asha'));
  await ledger.openWallet({ accountId: 'ravi', displayName: 'Ravi' }, as('ravi'));
  await ledger.requestDeposit(
    {
      depositId: 'd1',
      walletId: 'asha',
      amountPaise: rupees(500),
      method: 'upi',
      reference: 'top up',
      details: { upiId: 'asha@upi' },
    },
    as('asha'),
  );
  await ledger.settleDeposit({ depositId: 'd1' }, as('admin'));
});

afterAll(async () => {
  await owner.destroy();
  await testDb.drop();
});

const LEDGER_TABLES = ['events', 'postings', 'accounts', 'idempotency_keys'] as const;
const me = sql.id(TEST_RUNTIME_LOGIN.user);

/** A column of each ledger table to "update" (to itself: the privilege check comes first anyway). */
const SOME_COLUMN: Record<(typeof LEDGER_TABLES)[number], string> = {
  events: 'type',
  postings: 'amount',
  accounts: 'balance',
  idempotency_keys: 'result',
};

function ledgerWrites(): [string, RawBuilder<unknown>][] {
  return LEDGER_TABLES.flatMap((table): [string, RawBuilder<unknown>][] => {
    const target = sql.id('ledger', table);
    const column = sql.id(SOME_COLUMN[table]);
    return [
      [`INSERT into ledger.${table}`, sql`insert into ${target} default values`],
      [`UPDATE ledger.${table}`, sql`update ${target} set ${column} = ${column}`],
      [`DELETE from ledger.${table}`, sql`delete from ${target}`],
      [`TRUNCATE ledger.${table}`, sql`truncate ${target} cascade`],
    ];
  });
}

const FORBIDDEN: [string, RawBuilder<unknown>][] = [
  ...ledgerWrites(),
  ['CREATE TABLE in ledger', sql`create table ledger.shadow (id int)`],
  ['CREATE TABLE in read', sql`create table read.shadow (id int)`],
  ['CREATE TABLE in public', sql`create table public.shadow (id int)`],
  ['CREATE FUNCTION in ledger', sql`create function ledger.shadow() returns int language sql as 'select 1'`],
  ['CREATE FUNCTION in read', sql`create function read.shadow() returns int language sql as 'select 1'`],
  ['CREATE FUNCTION in public', sql`create function public.shadow() returns int language sql as 'select 1'`],
  ['CREATE SCHEMA', sql`create schema shadow`],
  [
    'ALTER TABLE ledger.events DISABLE TRIGGER (one)',
    sql`alter table ledger.events disable trigger events_append_only`,
  ],
  ['ALTER TABLE ledger.events DISABLE TRIGGER ALL', sql`alter table ledger.events disable trigger all`],
  [
    'ALTER TABLE ledger.postings DISABLE TRIGGER postings_sum_to_zero',
    sql`alter table ledger.postings disable trigger postings_sum_to_zero`,
  ],
  ['DROP TRIGGER on ledger.events', sql`drop trigger events_append_only on ledger.events`],
  ['SET session_replication_role = replica', sql`set session_replication_role = replica`],
  ['ALTER TABLE ledger.events OWNER', sql`alter table ledger.events owner to ${me}`],
  ['ALTER TABLE read.history OWNER', sql`alter table read.history owner to ${me}`],
  ['DROP TABLE read.history', sql`drop table read.history`],
  ['CREATE INDEX on read.history', sql`create index shadow on read.history (reference)`],
  ['ALTER TABLE read.history ADD COLUMN', sql`alter table read.history add column shadow int`],
  [
    'CREATE TRIGGER on read.history',
    sql`create trigger shadow before insert on read.history for each row execute function ledger.reject_mutation()`,
  ],
  ['UPDATE audit.admin_actions (append-only trail)', sql`update audit.admin_actions set reason = 'edited'`],
  ['DELETE from audit.admin_actions', sql`delete from audit.admin_actions`],
  ['CREATE ROLE', sql`create role shadow_owner superuser`],
];

describe('refused to the runtime role', () => {
  it.each(FORBIDDEN)('%s', async (_name, statement) => {
    const error = await statement.execute(testDb.db).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error, 'the statement was allowed').toBeInstanceOf(Error);
    expect((error as { code?: string }).code, String(error)).toBe('42501');
  });

  it('cannot grant itself a ledger write (GRANT without the grant option only warns, and grants nothing)', async () => {
    await sql`grant update, delete, truncate on ledger.events to ${me}`.execute(testDb.db);
    const { rows } = await sql<{ update: boolean; delete: boolean; truncate: boolean }>`
      select has_table_privilege('ledger.events', 'UPDATE') as update, has_table_privilege('ledger.events', 'DELETE') as delete,
             has_table_privilege('ledger.events', 'TRUNCATE') as truncate`.execute(testDb.db);
    expect(rows[0]).toEqual({ update: false, delete: false, truncate: false });
  });

  it('is not the owner, not a superuser and cannot become either', async () => {
    const { rows } = await sql<{ user: string; superuser: boolean; owner: string }>`
      select current_user as user, (select rolsuper from pg_roles where rolname = current_user) as superuser,
             pg_get_userbyid((select relowner from pg_class where oid = 'ledger.events'::regclass)) as owner`.execute(
      testDb.db,
    );
    expect(rows[0]?.user).toBe(TEST_RUNTIME_LOGIN.user);
    expect(rows[0]?.superuser).toBe(false);
    const error = await sql`set role ${sql.id(rows[0]?.owner ?? '')}`.execute(testDb.db).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect((error as { code?: string }).code).toBe('42501');
  });

  it('has left the ledger as it was', async () => {
    const { rows } = await sql<{ events: number; postings: number }>`
      select (select count(*)::int from ledger.events) as events, (select count(*)::int from ledger.postings) as postings`.execute(
      owner,
    );
    expect(rows[0]).toEqual({ events: 4, postings: 2 });
  });
});

describe('allowed to the runtime role', () => {
  it('reads every ledger table', async () => {
    for (const table of LEDGER_TABLES) await sql`select * from ${sql.id('ledger', table)} limit 1`.execute(testDb.db);
  });

  it('appends through the ledger commands (ledger.append and ledger.open_wallet_account run as the owner)', async () => {
    await ledger.openWallet({ accountId: 'meera', displayName: 'Meera' }, as('meera'));
    const result = await ledger.transfer(
      { transferId: 't1', fromAccountId: 'asha', toAccountId: 'meera', amountPaise: rupees(120), reference: 'lunch' },
      { actorId: 'asha', idempotencyKey: 'k-1' },
    );
    expect(result.replayed).toBe(false);
    const { rows } = await sql<{ balance: bigint }>`select balance from ledger.accounts where id = 'meera'`.execute(
      testDb.db,
    );
    expect(rows[0]?.balance).toBe(rupees(120));
  });

  it('writes the read, identity and audit tables it owns the data of', async () => {
    await testDb.db.transaction().execute(async (trx) => {
      await sql`insert into read.directory (account_id, display_name, kind, opened_at) values ('x1', 'X', 'wallet', now())`.execute(
        trx,
      );
      await sql`update read.directory set display_name = 'Y' where account_id = 'x1'`.execute(trx);
      await sql`delete from read.directory where account_id = 'x1'`.execute(trx);
      await sql`insert into identity.users (id, email, first_name, last_name, auth_provider, password_hash) values ('u1', 'u1@wallet.test', 'U', 'One', 'local', 'h')`.execute(
        trx,
      );
      await sql`update identity.users set is_verified = true where id = 'u1'`.execute(trx);
      await sql`delete from identity.users where id = 'u1'`.execute(trx);
      await sql`insert into audit.admin_actions (actor_id, action, target) values ('admin', 'replay', 'history')`.execute(
        trx,
      );
      const { rows } = await sql<{
        id: bigint;
      }>`insert into audit.replay_runs (projection, state, requested_by) values ('history', 'queued', 'admin') returning id`.execute(
        trx,
      );
      await sql`update audit.replay_runs set state = 'running' where id = ${rows[0]?.id ?? 0n}`.execute(trx);
    });
  });

  it('projects and replays, and the replayed tables keep the owner and the runtime grants', async () => {
    await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
    await replayProjection(testDb.db, 'history');
    await replayProjection(testDb.db, 'accounts');
    const page = await readHistoryPage(readViews(testDb.db), { accountId: 'meera', page: 1 });
    expect(page.total).toBe(1);
    const { rows } = await sql<{
      owner: string;
    }>`select pg_get_userbyid(relowner) as owner from pg_class where oid = 'read.history'::regclass`.execute(testDb.db);
    expect(rows[0]?.owner).not.toBe(TEST_RUNTIME_LOGIN.user);
    const error = await sql`alter table read.history add column shadow int`.execute(testDb.db).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect((error as { code?: string }).code).toBe('42501');
    await ledger.transfer(
      { transferId: 't2', fromAccountId: 'meera', toAccountId: 'asha', amountPaise: rupees(20), reference: 'back' },
      as('meera'),
    );
    await drainAll(testDb.db);
    await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
  });

  it('runs pg-boss without migrating it: send, fetch, complete', async () => {
    const boss = createJobBoss(testDb.url, { supervise: false, schedule: false, max: 1 });
    boss.on('error', (error) => console.error('[jobs]', error));
    await boss.start();
    try {
      await boss.send('projections.catch-up', { probe: true });
      const [job] = await boss.fetch('projections.catch-up');
      expect(job?.data).toEqual({ probe: true });
      await boss.complete('projections.catch-up', job?.id ?? '');
    } finally {
      await boss.stop({ graceful: false });
    }
  });
});

describe('runtimePrivilegeProblems', () => {
  it('finds none for the runtime role', async () => {
    expect(await runtimePrivilegeProblems(testDb.db, installation.schemaPolicies)).toEqual([]);
  });

  it('names a superuser owner', async () => {
    const problems = await runtimePrivilegeProblems(owner, installation.schemaPolicies);
    expect(problems.join('\n')).toMatch(/is a superuser/);
    expect(problems.join('\n')).toMatch(/owns ledger tables/);
  });

  it('names a ledger write or a CREATE right granted to the runtime role', async () => {
    await sql`grant update, delete on ledger.events to wallet_runtime`.execute(owner);
    await sql`grant create on schema read to wallet_runtime`.execute(owner);
    try {
      const problems = (await runtimePrivilegeProblems(testDb.db, installation.schemaPolicies)).join('\n');
      expect(problems).toContain('may DELETE/UPDATE ledger.events');
      expect(problems).toContain('may create objects in schema read');
    } finally {
      await sql`revoke update, delete on ledger.events from wallet_runtime`.execute(owner);
      await sql`revoke create on schema read from wallet_runtime`.execute(owner);
    }
    expect(await runtimePrivilegeProblems(testDb.db, installation.schemaPolicies)).toEqual([]);
  });
});

describe('the ledger functions the runtime calls', () => {
  it('all run as their owner with a pinned search_path (a new one must too)', async () => {
    const { rows } = await sql<{ name: string; definer: boolean; config: string[] | null }>`
      select p.oid::regprocedure::text as name, p.prosecdef as definer, p.proconfig as config
        from pg_proc p
       where p.pronamespace in ('ledger'::regnamespace, 'replay'::regnamespace) and p.prokind = 'f' and p.prorettype <> 'trigger'::regtype
       order by 1`.execute(owner);
    expect(rows.map((row) => row.name)).toContain('ledger.append(text,integer,jsonb,jsonb,jsonb,jsonb)');
    const unsafe = rows
      .filter((row) => !row.definer || !(row.config ?? []).includes('search_path=pg_catalog, pg_temp'))
      .map((row) => row.name);
    expect(unsafe, 'not SECURITY DEFINER with search_path = pg_catalog, pg_temp').toEqual([]);
  });
});
