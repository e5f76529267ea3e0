import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { createJobBoss, type JobBoss } from '../platform/jobs.ts';
import { tablesView } from '../platform/database.ts';
import { createWiredLedger } from '../runtime/ledger.ts';
import { rupees, type Ledger, type LedgerTables } from '../ledger/index.ts';
import {
  drainAll,
  readHistoryPage,
  readMoneyRequests,
  readStatement,
  periodSummary,
  readStatementDays,
  readWalletBalance,
  waitForCheckpoint,
  createCheckpointWaiter,
  LEDGER_APPENDED_CHANNEL,
  REPLY_WAITS,
  readViews,
  type ReadViews,
} from './index.ts';
import { allCaughtUp, drainUntil } from '../test/read-model.ts';
import { waitUntil } from '../test/wait.ts';
import { addDays, kolkataToday } from '../contracts/statements.ts';

let testDb: TestDatabase<unknown>;
let boss: JobBoss;
let ledger: Ledger;
let read: ReadViews;
let pool: pg.Pool;
const as = (actorId: string) => ({ actorId });

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
  boss = createJobBoss(testDb.url, { supervise: false, schedule: false, max: 2 });
  await boss.start();
  ledger = createWiredLedger(tablesView<LedgerTables>(testDb.db));
  read = readViews(testDb.db);
  pool = new pg.Pool({ connectionString: testDb.url, max: 3 });
  await ledger.openWallet({ accountId: 'alice', displayName: 'Alice Rao' }, as('alice'));
  await ledger.openWallet({ accountId: 'bob', displayName: 'Bob Das' }, as('bob'));
  await ledger.requestDeposit(
    {
      depositId: 'd1',
      walletId: 'alice',
      amountPaise: rupees(500),
      method: 'upi',
      reference: 'Salary top up',
      details: { upiId: 'a@upi' },
    },
    as('alice'),
  );
  await ledger.requestDeposit(
    {
      depositId: 'd2',
      walletId: 'alice',
      amountPaise: rupees(70),
      method: 'bank_transfer',
      reference: 'never arrives',
      details: { accountNumber: '1', ifscCode: 'X', bankName: 'B' },
    },
    as('alice'),
  );
  await drainAll(testDb.db);
  await ledger.settleDeposit({ depositId: 'd1' }, as('admin'));
  await ledger.failDeposit({ depositId: 'd2', reason: 'bounced' }, as('admin'));
  await ledger.transfer(
    { transferId: 't1', fromAccountId: 'alice', toAccountId: 'bob', amountPaise: rupees(200), reference: 'Rent March' },
    as('alice'),
  );
  await ledger.requestMoney(
    { requestId: 'r1', requesterId: 'bob', payerId: 'alice', amountPaise: rupees(50), reference: 'lunch' },
    as('bob'),
  );
  await ledger.requestMoney(
    { requestId: 'r2', requesterId: 'alice', payerId: 'bob', amountPaise: rupees(5), reference: 'tea' },
    as('alice'),
  );
  await ledger.acceptMoneyRequest({ requestId: 'r1', payerId: 'alice' }, as('alice'));
  await ledger.rejectMoneyRequest({ requestId: 'r2', payerId: 'bob' }, as('bob'));
  await ledger.completeCardDeposit(
    {
      depositId: 'c1',
      walletId: 'bob',
      amountPaise: rupees(10),
      reference: 'card top up',
      provider: 'sandbox',
      paymentId: 'pi_1',
    },
    as('provider:card'),
  );
  await drainAll(testDb.db, { batchSize: 3 });
  await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
});

afterAll(async () => {
  await pool.end();
  await boss.stop({ graceful: false });
  await testDb.drop();
});

/** The projectors' wake-ups as they arrive (their payloads, in `heard`), on a connection of the test's own. */
async function hearWakeUps(): Promise<{ heard: string[]; listener: pg.Client }> {
  const heard: string[] = [];
  const listener = new pg.Client({ connectionString: testDb.url });
  await listener.connect();
  listener.on('notification', (message) => {
    if (message.channel === LEDGER_APPENDED_CHANNEL) heard.push(message.payload ?? '');
  });
  await listener.query(`listen ${LEDGER_APPENDED_CHANNEL}`);
  return { heard, listener };
}

describe('given deposits, a transfer, money requests and a card deposit, projected', () => {
  it('shows wallet and funding balances', async () => {
    expect(await readWalletBalance(read, 'alice')).toBe(rupees(500 - 200 - 50));
    expect(await readWalletBalance(read, 'bob')).toBe(rupees(200 + 50 + 10));
    expect(await readWalletBalance(read, 'funding:upi')).toBe(-rupees(500));
    expect(await readWalletBalance(read, 'funding:card')).toBe(-rupees(10));
  });

  it('lists history per participant, newest first, with the type each one sees', async () => {
    const page = await readHistoryPage(read, { accountId: 'alice', page: 1 });
    expect(page.total).toBe(4);
    expect(
      page.rows.map((row) => [row.transaction_id, row.type, row.status, row.counterparty_name, row.amount_paise]),
    ).toEqual([
      ['r1', 'debit', 'success', 'Bob Das', rupees(50)],
      ['t1', 'debit', 'success', 'Bob Das', rupees(200)],
      ['d2', 'deposit', 'failed', 'Bank transfer', rupees(70)],
      ['d1', 'deposit', 'success', 'UPI', rupees(500)],
    ]);
    const deposit = page.rows[3];
    expect([deposit?.sender_id, deposit?.receiver_id, deposit?.method]).toEqual(['alice', 'alice', 'upi']);
    const bob = await readHistoryPage(read, { accountId: 'bob', page: 1 });
    expect(bob.rows.map((row) => [row.transaction_id, row.type, row.counterparty_name])).toEqual([
      ['c1', 'deposit', 'Card'],
      ['r1', 'credit', 'Alice Rao'],
      ['t1', 'credit', 'Alice Rao'],
    ]);
  });

  it('searches by reference text or transaction id, filters by type, and pages', async () => {
    expect(
      (await readHistoryPage(read, { accountId: 'alice', search: 'rent', page: 1 })).rows.map((r) => r.transaction_id),
    ).toEqual(['t1']);
    expect(
      (await readHistoryPage(read, { accountId: 'alice', search: 'D2', page: 1 })).rows.map((r) => r.transaction_id),
    ).toEqual(['d2']);
    expect((await readHistoryPage(read, { accountId: 'alice', search: '%', page: 1 })).total).toBe(0);
    expect(
      (await readHistoryPage(read, { accountId: 'alice', type: 'deposit', page: 1 })).rows.map((r) => r.transaction_id),
    ).toEqual(['d2', 'd1']);
    const second = await readHistoryPage(read, { accountId: 'alice', page: 2, pageSize: 3 });
    expect([second.total, second.rows.map((r) => r.transaction_id)]).toEqual([4, ['d1']]);
  });

  it('lists money requests sent and received with both names and status', async () => {
    const alice = await readMoneyRequests(read, 'alice');
    expect(alice.sent.map((r) => [r.request_id, r.status, r.payer_name])).toEqual([['r2', 'rejected', 'Bob Das']]);
    expect(alice.received.map((r) => [r.request_id, r.status, r.requester_name])).toEqual([
      ['r1', 'accepted', 'Bob Das'],
    ]);
  });

  it('keeps statement lines with running balances for wallets and funding accounts', async () => {
    const alice = await readStatement(read, 'alice');
    expect(alice.map((row) => [row.event_type, row.amount_paise, row.balance_after_paise])).toEqual([
      ['DepositSettled', rupees(500), rupees(500)],
      ['TransferCompleted', -rupees(200), rupees(300)],
      ['MoneyRequestAccepted', -rupees(50), rupees(250)],
    ]);
    expect(alice[1]?.counterparty_name).toBe('Bob Das');
    const upi = await readStatement(read, 'funding:upi');
    expect(upi.map((row) => [row.amount_paise, row.balance_after_paise, row.counterparty_id])).toEqual([
      [-rupees(500), -rupees(500), 'alice'],
    ]);
  });
});

describe('daily statements (projection "statement_days")', () => {
  // Yesterday to today (Kolkata): the events were recorded within seconds, maybe across midnight.
  const today = kolkataToday();
  const period = (accountId: string) => ({ accountId, from: addDays(today, -1), to: today });

  it("sums each wallet's days: money in, money out, closing balance, postings; funding accounts have none", async () => {
    const alice = await readStatementDays(read, period('alice'));
    expect(alice.openingBalancePaise).toBe(0n);
    expect(periodSummary(alice)).toEqual({
      openingBalancePaise: 0n,
      moneyInPaise: rupees(500),
      moneyOutPaise: rupees(200 + 50),
      closingBalancePaise: rupees(250),
      postingsCount: 3n,
    });
    const bob = periodSummary(await readStatementDays(read, period('bob')));
    expect([bob.moneyInPaise, bob.moneyOutPaise, bob.closingBalancePaise]).toEqual([rupees(260), 0n, rupees(260)]);
    expect((await readStatementDays(read, period('funding:upi'))).days).toEqual([]);
  });
});

describe('read-your-writes', () => {
  it('waits until every projection has passed the checkpoint a command returned', async () => {
    const result = await ledger.transfer(
      { transferId: 't9', fromAccountId: 'bob', toAccountId: 'alice', amountPaise: rupees(1), reference: 'back' },
      as('bob'),
    );
    expect(await waitForCheckpoint(pool, 'all', result.checkpoint, 100)).toBe(false);
    const waiting = waitForCheckpoint(pool, 'all', result.checkpoint, 20_000);
    await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
    expect(await waiting).toBe(true);
    expect((await readHistoryPage(read, { accountId: 'alice', page: 1 })).rows[0]?.transaction_id).toBe('t9');
  });
});

describe('read-your-writes through one shared listener', () => {
  it('answers many waits on one connection, true once projected, false on timeout', async () => {
    const waiter = createCheckpointWaiter({ connectionString: testDb.url });
    try {
      const result = await ledger.transfer(
        { transferId: 't10', fromAccountId: 'bob', toAccountId: 'alice', amountPaise: rupees(1), reference: 'again' },
        as('bob'),
      );
      expect(await waiter.wait('history', result.checkpoint, 100)).toBe(false);
      const waits = Array.from({ length: 50 }, () => waiter.wait('all', result.checkpoint, 20_000));
      await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
      expect(await Promise.all(waits)).toEqual(Array.from({ length: 50 }, () => true));
      expect(await waiter.wait('accounts', result.checkpoint, 1)).toBe(true);
    } finally {
      await waiter.close();
    }
    expect(await waiter.wait('all', '1.1', 10)).toBe(false);
  });

  it('tells the projectors a reply waits while one does, and not for a wait already answered', async () => {
    const { heard, listener } = await hearWakeUps();
    const waiter = createCheckpointWaiter({ connectionString: testDb.url });
    try {
      const pending = await ledger.transfer(
        { transferId: 't13', fromAccountId: 'bob', toAccountId: 'alice', amountPaise: rupees(1), reference: 'hurry' },
        as('bob'),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      heard.length = 0;
      // Not projected yet (nothing drains here): the wait says so to the projectors.
      expect(await waiter.wait('history', pending.checkpoint, 200)).toBe(false);
      await waitUntil('the hurry to arrive', () => heard.includes(REPLY_WAITS));
      await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
      expect(await waiter.wait('history', pending.checkpoint, 2_000)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 100));
      heard.length = 0;
      // Answered from what is known: nobody waits, nothing is sent.
      expect(await waiter.wait('history', pending.checkpoint, 1)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(heard).toEqual([]);
    } finally {
      await waiter.close();
      await listener.end();
    }
  });

  it('tells the projectors again after the connection it tells them on was cut', async () => {
    const { heard, listener } = await hearWakeUps();
    const waiter = createCheckpointWaiter({ connectionString: testDb.url });
    const hurrying = sql`select count(*)::int as n from pg_stat_activity
                          where application_name = 'wallet-reply-hurry' and datname = current_database()`;
    try {
      const first = await ledger.transfer(
        { transferId: 't14', fromAccountId: 'bob', toAccountId: 'alice', amountPaise: rupees(1), reference: 'cut 1' },
        as('bob'),
      );
      expect(await waiter.wait('history', first.checkpoint, 100)).toBe(false);
      await waitUntil('the first hurry to arrive', () => heard.includes(REPLY_WAITS));
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
                 where application_name = 'wallet-reply-hurry' and datname = current_database()`.execute(testDb.db);
      await waitUntil('the cut connection to be gone', async () => {
        const { rows } = await hurrying.execute(testDb.db);
        return (rows[0] as { n: number }).n === 0;
      });
      heard.length = 0;
      // Still not projected: each wait asks again, and one of them is heard on a fresh connection.
      await waitUntil('a hurry after the cut', async () => {
        expect(await waiter.wait('history', first.checkpoint, 50)).toBe(false);
        return heard.includes(REPLY_WAITS);
      });
      const { rows } = await hurrying.execute(testDb.db);
      expect(rows).toEqual([{ n: 1 }]);
    } finally {
      await waiter.close();
      await listener.end();
    }
  });

  it('knows what was projected before it listened, and after its connection was cut', async () => {
    const before = await ledger.transfer(
      { transferId: 't11', fromAccountId: 'bob', toAccountId: 'alice', amountPaise: rupees(1), reference: 'before' },
      as('bob'),
    );
    await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
    const waiter = createCheckpointWaiter({ connectionString: testDb.url });
    try {
      // Projected before the LISTEN existed: no notification will come, the first read knows it.
      expect(await waiter.wait('all', before.checkpoint, 1)).toBe(true);
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
                 where application_name = 'wallet-checkpoint-waiter' and datname = current_database()`.execute(
        testDb.db,
      );
      const during = await ledger.transfer(
        { transferId: 't12', fromAccountId: 'bob', toAccountId: 'alice', amountPaise: rupees(1), reference: 'cut' },
        as('bob'),
      );
      // Projected while the waiter's connection was down: its NOTIFY went to nobody.
      await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
      expect(await waiter.wait('all', during.checkpoint, 2_000)).toBe(true);
    } finally {
      await waiter.close();
    }
  });
});
