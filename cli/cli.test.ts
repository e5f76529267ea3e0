import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { createDatabase, tablesView } from '../platform/database.ts';
import { createLedger, rupees, type Ledger, type LedgerTables } from '../ledger/index.ts';
import { drainAll } from '../projections/index.ts';
import { HELD_BACK_WARNING_SECONDS } from '../operations/index.ts';
import { allCaughtUp, drainUntil } from '../test/read-model.ts';
import { capturedIo } from './io.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, runCli } from './main.ts';
import { formatStatus } from './status.ts';

let testDb: TestDatabase<unknown>;
let ledger: Ledger;
const as = (actorId: string) => ({ actorId });

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
  ledger = createLedger({ db: tablesView<LedgerTables>(testDb.db) });
  await ledger.openWallet({ accountId: 'alice', displayName: 'Alice' }, as('alice'));
  await ledger.openWallet({ accountId: 'bob', displayName: 'Bob' }, as('bob'));
  await ledger.requestDeposit(
    {
      depositId: 'd1',
      walletId: 'alice',
      amountPaise: rupees(900),
      method: 'upi',
      reference: 'top up',
      details: { upiId: 'a@upi' },
    },
    as('alice'),
  );
  await ledger.settleDeposit({ depositId: 'd1' }, as('admin'));
  await ledger.transfer(
    { transferId: 't1', fromAccountId: 'alice', toAccountId: 'bob', amountPaise: rupees(250), reference: 'rent' },
    as('alice'),
  );
  await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
});

afterAll(async () => {
  await testDb.drop();
});

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = capturedIo();
  const code = await runCli(argv, io, { DATABASE_URL: testDb.url, DATA_DIR: '/nonexistent' });
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

describe('verify', () => {
  it('passes and prints the trial balance when heads, projections and postings agree', async () => {
    const result = await cli('verify');
    expect(result.code, result.out).toBe(EXIT_OK);
    expect(result.out).toContain('funding');
    expect(result.out).toMatch(/wallet\s+2 accounts\s+₹900\.00/);
    expect(result.out).toMatch(/total.*₹0\.00/);
  });

  it('fails naming the account when a balance projection row is tampered with', async () => {
    await sql`update read.balances set balance_paise = balance_paise + 1 where account_id = 'bob'`.execute(testDb.db);
    const result = await cli('verify');
    await sql`update read.balances set balance_paise = balance_paise - 1 where account_id = 'bob'`.execute(testDb.db);
    expect(result.code).toBe(EXIT_FAILED);
    expect(result.out).toContain('balance projection differs from postings: bob');
    expect((await cli('verify')).code).toBe(EXIT_OK);
  });

  it('fails naming the account when a statement row is tampered with', async () => {
    await sql`update read.statement_lines set amount_paise = amount_paise * 2 where account_id = 'funding:upi'`.execute(
      testDb.db,
    );
    const result = await cli('verify');
    await sql`update read.statement_lines set amount_paise = amount_paise / 2 where account_id = 'funding:upi'`.execute(
      testDb.db,
    );
    expect(result.code).toBe(EXIT_FAILED);
    expect(result.out).toContain('statement differs from postings: funding:upi');
  });

  it('fails naming the account when an account head is tampered with', async () => {
    // Only the owner can touch a head directly; the CLI runs as the runtime role.
    const owner = createDatabase<unknown>({ connectionString: testDb.ownerUrl, maxConnections: 1 });
    await sql`update ledger.accounts set balance = balance + 100 where id = 'alice'`.execute(owner);
    const result = await cli('verify');
    await sql`update ledger.accounts set balance = balance - 100 where id = 'alice'`.execute(owner);
    expect(result.code).toBe(EXIT_FAILED);
    expect(result.out).toContain('account head differs from postings: alice');
    await sql`update ledger.accounts set seq = seq + 1 where id = 'bob'`.execute(owner);
    const seq = await cli('verify');
    await sql`update ledger.accounts set seq = seq - 1 where id = 'bob'`.execute(owner);
    await owner.destroy();
    expect(seq.out).toContain('account head differs from postings: bob');
    expect((await cli('verify')).code).toBe(EXIT_OK);
  });

  it('does not report a projection that is only behind', async () => {
    await ledger.transfer(
      { transferId: 't2', fromAccountId: 'bob', toAccountId: 'alice', amountPaise: rupees(1), reference: 'back' },
      as('bob'),
    );
    const result = await cli('verify');
    expect(result.code, result.out).toBe(EXIT_OK);
    await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
  });
});

describe('status', () => {
  it('shows each checkpoint and the lag, and names a transaction holding the xmin back', async () => {
    const blocker = new pg.Client(testDb.url);
    await blocker.connect();
    await blocker.query("set application_name = 'long-report'");
    await blocker.query('begin');
    await blocker.query('select pg_current_xact_id()');
    await ledger.transfer(
      { transferId: 't3', fromAccountId: 'bob', toAccountId: 'alice', amountPaise: rupees(1), reference: 'held' },
      as('bob'),
    );
    await drainAll(testDb.db);
    // Not a wait for the system: status warns only once held-back events are older than
    // HELD_BACK_WARNING_SECONDS by the database's clock, so that much time must pass.
    await new Promise((resolve) => setTimeout(resolve, HELD_BACK_WARNING_SECONDS * 1000 + 100));
    const result = await cli('status');
    await blocker.query('rollback');
    await blocker.end();
    expect(result.code).toBe(EXIT_OK);
    expect(result.out).toMatch(/history\s+\d+\.\d+\s+\d+\s+1\s/);
    expect(result.out).toContain('held back by an open transaction');
    // The oldest open transaction on the server: ours, unless another test file's is older.
    expect(result.out).toMatch(/Oldest transaction: pid \d+/);
    await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
    const caughtUp = await cli('status');
    expect(caughtUp.out).toMatch(/history\s+\d+\.\d+\s+\d+\s+0\s/);
  });
});

describe('status as the runtime role', () => {
  // The CLI runs as the runtime role, which sees another role's session in pg_stat_activity
  // without its start time, state or query: such a holder is still named.
  it('names a transaction held open by another role (here the owner) without its details', async () => {
    const blocker = new pg.Client(testDb.ownerUrl);
    await blocker.connect();
    await blocker.query("set application_name = 'owner-report'");
    await blocker.query('begin');
    await blocker.query('select pg_current_xact_id()');
    await ledger.transfer(
      {
        transferId: 't4',
        fromAccountId: 'bob',
        toAccountId: 'alice',
        amountPaise: rupees(1),
        reference: 'held by owner',
      },
      as('bob'),
    );
    await drainAll(testDb.db);
    // Not a wait for the system: status warns only once held-back events are older than
    // HELD_BACK_WARNING_SECONDS by the database's clock, so that much time must pass.
    await new Promise((resolve) => setTimeout(resolve, HELD_BACK_WARNING_SECONDS * 1000 + 100));
    const result = await cli('status');
    await blocker.query('rollback');
    await blocker.end();
    expect(result.code, result.err).toBe(EXIT_OK);
    expect(result.out).toContain('held back by an open transaction');
    // Ours, unless another test file's transaction is older.
    expect(result.out).toMatch(/Oldest transaction: pid \d+ \(/);
    if (result.out.includes('owner-report')) expect(result.out).toContain("another role's session");
    await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
  });

  it('formats a hidden holder by pid, application and role', () => {
    const text = formatStatus({
      projections: [],
      heldBackEvents: 3n,
      heldBackSeconds: 2,
      holder: {
        pid: 42,
        applicationName: 'report',
        role: 'analyst',
        visible: false,
        state: '',
        transactionSeconds: null,
        query: '',
      },
    });
    expect(text).toContain("Oldest transaction: pid 42 (report, role analyst): another role's session");
  });
});

describe('balance, events and replay', () => {
  it('shows an account balance from postings, head and projection', async () => {
    const result = await cli('balance', 'funding:upi');
    expect(result.code).toBe(EXIT_OK);
    expect(result.out).toContain('-₹900.00');
    expect((await cli('balance', 'nobody')).code).toBe(EXIT_FAILED);
  });

  it('lists events by stream and by account', async () => {
    const stream = await cli('events', '--stream', 'transfer-t1');
    expect(stream.out).toContain('TransferCompleted');
    expect(stream.out.split('\n')).toHaveLength(1);
    const account = await cli('events', '--account', 'bob', '--since', '2000-01-01');
    expect(account.out).toContain('WalletOpened');
    expect(account.out).not.toContain('DepositSettled');
    expect((await cli('events', '--until', '2000-01-01')).out).toBe('No events match.');
  });

  it('replays a projection and prints the rate', async () => {
    const result = await cli('replay', '--projection', 'history');
    expect(result.code, result.err).toBe(EXIT_OK);
    expect(result.out).toMatch(
      /Replayed history: \d+ events in [\d.]+ s \(\d+ events\/s; load [\d.]+ s, indexes [\d.]+ s, swap [\d.]+ s\)/,
    );
    // Not a terminal: the progress comes as JSON lines, each phase in order, the last one done.
    const lines = result.err
      .split('\n')
      .filter((line) => line.startsWith('{"projection"'))
      .map((line) => JSON.parse(line) as { phase: string; applied: number; total: number; eventsPerSecond: number });
    expect([...new Set(lines.map((line) => line.phase))]).toEqual(['load', 'indexes', 'swap', 'done']);
    const done = lines.at(-1);
    expect(done?.applied).toBeGreaterThan(0);
    expect(done?.applied).toBe(done?.total);
    expect(done?.eventsPerSecond).toBeGreaterThan(0);
    expect((await cli('verify')).code).toBe(EXIT_OK);
  });

  it('rebuilds the balances alone with --balances, and they come out the same', async () => {
    const before = await cli('balance', 'funding:upi');
    const result = await cli('replay', '--balances');
    expect(result.code, result.err).toBe(EXIT_OK);
    expect(result.out).toMatch(/Replayed accounts: \d+ events in [\d.]+ s/);
    expect((await cli('balance', 'funding:upi')).out).toBe(before.out);
    expect((await cli('replay', '--balances', '--projection', 'history')).code).not.toBe(EXIT_OK);
  });

  it('replays every projection at once and prints each rate and the total', async () => {
    const before = await cli('balance', 'funding:upi');
    const result = await cli('replay');
    expect(result.code, result.err).toBe(EXIT_OK);
    for (const name of ['accounts', 'history', 'money_requests', 'statement_days'])
      expect(result.out).toMatch(new RegExp(`Replayed ${name}: \\d+ events in [\\d.]+ s`));
    expect(result.out).toMatch(/All 4 projections: \d+ events in [\d.]+ s \(\d+ events\/s\)/);
    expect((await cli('balance', 'funding:upi')).out).toBe(before.out);
  });
});

describe('arguments', () => {
  it('prints help for each command and exits 0', async () => {
    for (const command of ['replay', 'verify', 'status', 'balance', 'events']) {
      const result = await cli(command, '--help');
      expect(result.code).toBe(EXIT_OK);
      expect(result.out).toContain(`npm run ledger -- ${command}`);
    }
    expect((await cli('--help')).code).toBe(EXIT_OK);
  });

  it('rejects bad arguments with a clear message and exit 2', async () => {
    const cases: [string[], string][] = [
      [[], 'Usage'],
      [['frobnicate'], 'unknown command "frobnicate"'],
      [['replay', '--projection', 'nope'], 'unknown projection "nope"'],
      [['verify', '--fast'], "Unknown option '--fast'"],
      [['balance'], 'balance needs exactly 1 argument'],
      [['events', '--since', 'yesterday'], '--since must be an ISO 8601 time'],
      [['events', '--limit', '0'], '--limit must be a whole number'],
    ];
    for (const [argv, message] of cases) {
      const result = await cli(...argv);
      expect(result.code, argv.join(' ')).toBe(EXIT_USAGE);
      expect(result.out + result.err).toContain(message);
    }
  });
});
