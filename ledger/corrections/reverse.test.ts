import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { createTestDatabase, eventCount, type TestDatabase } from '../../test/database.ts';
import { createJobBoss, type JobBoss } from '../../platform/jobs.ts';
import { createWiredLedger } from '../../runtime/ledger.ts';
import { verifyLedger } from '../../audit/index.ts';
import { drainUntil } from '../../test/read-model.ts';
import { rupees, type Ledger, type LedgerTables } from '../index.ts';

let testDb: TestDatabase<LedgerTables>;
let boss: JobBoss;
let ledger: Ledger;
const as = (actorId: string) => ({ actorId });

beforeAll(async () => {
  testDb = await createTestDatabase<LedgerTables>();
  boss = createJobBoss(testDb.url, { supervise: false, schedule: false, max: 2 });
  await boss.start();
  ledger = createWiredLedger(testDb.db);
  for (const id of ['alice', 'bob', 'carol'])
    await ledger.openWallet({ accountId: id, displayName: `${id} name` }, as(id));
  await ledger.requestDeposit(
    {
      depositId: 'd0',
      walletId: 'alice',
      amountPaise: rupees(1_000),
      method: 'upi',
      reference: 'top up',
      details: { upiId: 'a@ok' },
    },
    as('alice'),
  );
  await ledger.settleDeposit({ depositId: 'd0' }, as('admin'));
});

afterAll(async () => {
  await boss.stop({ graceful: false });
  await testDb.drop();
});

/** The projector and verify take the untyped database (they name their own tables). */
function anyDb(): Kysely<unknown> {
  return testDb.db as unknown as Kysely<unknown>;
}

async function balance(accountId: string): Promise<bigint | null> {
  const row = await testDb.db
    .selectFrom('ledger.accounts')
    .select('balance')
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  return row.balance;
}

async function streamTypes(streamId: string): Promise<string[]> {
  const rows = await testDb.db
    .selectFrom('ledger.events')
    .select('type')
    .where('stream_id', '=', streamId)
    .orderBy('stream_version')
    .execute();
  return rows.map((row) => row.type);
}

async function projectEverything(): Promise<void> {
  // Other test files' transactions can hold the snapshot xmin back for a moment.
  await drainUntil(anyDb(), async () => {
    const { rows } = await sql<{ behind: boolean }>`
      select exists (select 1 from ledger.events e, read.checkpoints c where (e.tx_id, e.position) > (c.tx_id, c.position)) as behind`.execute(
      testDb.db,
    );
    return !rows[0]?.behind;
  });
}

describe('reversing a transfer', () => {
  it('appends a linked TransferReversed on the same stream whose postings mirror the original, and keeps the original', async () => {
    await ledger.transfer(
      { transferId: 't1', fromAccountId: 'alice', toAccountId: 'bob', amountPaise: rupees(200), reference: 'rent' },
      as('alice'),
    );
    const result = await ledger.reverseTransaction(
      { kind: 'transfer', transactionId: 't1', reason: '  sent to the wrong person ' },
      as('admin-1'),
    );
    expect(result).toMatchObject({ streamId: 'transfer-t1', streamVersion: 1, walletIds: ['alice', 'bob'] });
    expect(await streamTypes('transfer-t1')).toEqual(['TransferCompleted', 'TransferReversed']);
    expect(await balance('alice')).toBe(rupees(1_000));
    expect(await balance('bob')).toBe(0n);

    const events = await testDb.db
      .selectFrom('ledger.events')
      .select(['position', 'type', 'data', 'metadata'])
      .where('stream_id', '=', 'transfer-t1')
      .orderBy('stream_version')
      .execute();
    const [original, reversal] = events;
    expect(reversal?.data).toMatchObject({
      reason: 'sent to the wrong person',
      reversedBy: 'admin-1',
      reversesPosition: String(original?.position),
    });
    expect(reversal?.metadata).toMatchObject({ actorId: 'admin-1', command: 'reverseTransaction' });
    const postings = await testDb.db
      .selectFrom('ledger.postings')
      .select(['position', 'account_id', 'amount'])
      .where('position', 'in', [original!.position, reversal!.position])
      .execute();
    const of = (position: bigint, account: string) =>
      postings.find((p) => p.position === position && p.account_id === account)?.amount;
    expect(of(reversal!.position, 'alice')).toBe(-(of(original!.position, 'alice') ?? 0n));
    expect(of(reversal!.position, 'bob')).toBe(-(of(original!.position, 'bob') ?? 0n));

    await projectEverything();
    const report = await verifyLedger(anyDb());
    expect(report.differences).toEqual([]);
    expect(report.totalPaise).toBe(0n);

    // Both parties see the original and the reversal in their history.
    const { rows } = await sql<{
      account_id: string;
      type: string;
      reference: string;
      status: string;
      amount_paise: bigint;
    }>`
      select account_id, type, reference, status, amount_paise from read.history where stream_id = 'transfer-t1' order by position, account_id`.execute(
      testDb.db,
    );
    expect(rows).toEqual([
      { account_id: 'alice', type: 'debit', reference: 'rent', status: 'success', amount_paise: rupees(200) },
      { account_id: 'bob', type: 'credit', reference: 'rent', status: 'success', amount_paise: rupees(200) },
      {
        account_id: 'alice',
        type: 'credit',
        reference: 'Reversal: sent to the wrong person',
        status: 'success',
        amount_paise: rupees(200),
      },
      {
        account_id: 'bob',
        type: 'debit',
        reference: 'Reversal: sent to the wrong person',
        status: 'success',
        amount_paise: rupees(200),
      },
    ]);
  });

  it('refuses a second reversal, also when two race', async () => {
    const before = await eventCount(testDb.db);
    await expect(
      ledger.reverseTransaction({ kind: 'transfer', transactionId: 't1', reason: 'again' }, as('admin-1')),
    ).rejects.toMatchObject({ code: 'already_reversed' });
    expect(await eventCount(testDb.db)).toBe(before);

    await ledger.transfer(
      { transferId: 't-race', fromAccountId: 'alice', toAccountId: 'bob', amountPaise: rupees(10), reference: 'race' },
      as('alice'),
    );
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        ledger.reverseTransaction(
          { kind: 'transfer', transactionId: 't-race', reason: 'racing admins' },
          as('admin-1'),
        ),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes.filter((o) => o.status === 'rejected')) {
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({
        code: expect.stringMatching(/^(already_reversed|stream_conflict)$/),
      });
    }
    expect(await streamTypes('transfer-t-race')).toEqual(['TransferCompleted', 'TransferReversed']);
    expect(await balance('bob')).toBe(0n);
  });

  it('refuses a reversal that would overdraw the receiver, appending nothing', async () => {
    await ledger.transfer(
      { transferId: 't2', fromAccountId: 'alice', toAccountId: 'bob', amountPaise: rupees(100), reference: 'loan' },
      as('alice'),
    );
    await ledger.transfer(
      { transferId: 't3', fromAccountId: 'bob', toAccountId: 'carol', amountPaise: rupees(60), reference: 'spent it' },
      as('bob'),
    );
    const before = await eventCount(testDb.db);
    await expect(
      ledger.reverseTransaction({ kind: 'transfer', transactionId: 't2', reason: 'fraud report' }, as('admin-1')),
    ).rejects.toMatchObject({
      code: 'insufficient_funds',
      details: { account: 'bob' },
    });
    expect(await eventCount(testDb.db)).toBe(before);
    expect(await streamTypes('transfer-t2')).toEqual(['TransferCompleted']);
    expect(await balance('bob')).toBe(rupees(40));
  });

  it('refuses unknown transactions and reasons shorter than 3 or longer than 500 characters', async () => {
    await expect(
      ledger.reverseTransaction({ kind: 'transfer', transactionId: 'nope', reason: 'whatever' }, as('admin-1')),
    ).rejects.toMatchObject({ code: 'transaction_not_found' });
    await expect(
      ledger.reverseTransaction({ kind: 'transfer', transactionId: 't3', reason: ' x ' }, as('admin-1')),
    ).rejects.toMatchObject({ code: 'invalid_reason' });
    await expect(
      ledger.reverseTransaction({ kind: 'transfer', transactionId: 't3', reason: 'x'.repeat(501) }, as('admin-1')),
    ).rejects.toMatchObject({ code: 'invalid_reason' });
    expect(await streamTypes('transfer-t3')).toEqual(['TransferCompleted']);
  });
});

describe('reversing a deposit', () => {
  it('returns a settled deposit to its funding account; the deposit can then be neither settled nor reversed again', async () => {
    await ledger.requestDeposit(
      {
        depositId: 'd1',
        walletId: 'carol',
        amountPaise: rupees(300),
        method: 'bank_transfer',
        reference: 'salary',
        details: { accountNumber: '1234', ifscCode: 'HDFC0001234', bankName: 'HDFC' },
      },
      as('carol'),
    );
    await expect(
      ledger.reverseTransaction({ kind: 'deposit', transactionId: 'd1', reason: 'not settled yet' }, as('admin-1')),
    ).rejects.toMatchObject({ code: 'not_reversible' });
    await ledger.settleDeposit({ depositId: 'd1' }, as('admin-1'));
    expect(await balance('carol')).toBe(rupees(360));
    await ledger.reverseTransaction(
      { kind: 'deposit', transactionId: 'd1', reason: 'bank recalled the payment' },
      as('admin-1'),
    );
    expect(await balance('carol')).toBe(rupees(60));
    expect(await streamTypes('deposit-d1')).toEqual(['DepositRequested', 'DepositSettled', 'DepositReversed']);
    await expect(
      ledger.reverseTransaction({ kind: 'deposit', transactionId: 'd1', reason: 'again please' }, as('admin-1')),
    ).rejects.toMatchObject({ code: 'already_reversed' });
    await expect(ledger.settleDeposit({ depositId: 'd1' }, as('admin-1'))).rejects.toMatchObject({
      code: 'deposit_not_pending',
    });

    await projectEverything();
    const report = await verifyLedger(anyDb());
    expect(report.differences).toEqual([]);
    expect(report.totalPaise).toBe(0n);
    const funding = report.trialBalance.find((line) => line.kind === 'funding');
    expect(funding?.balancePaise).toBe(-rupees(1_000));
    const { rows } = await sql<{ type: string; status: string; reference: string; counterparty_id: string }>`
      select type, status, reference, counterparty_id from read.history where stream_id = 'deposit-d1' order by position`.execute(
      testDb.db,
    );
    expect(rows).toEqual([
      { type: 'deposit', status: 'success', reference: 'salary', counterparty_id: 'funding:bank_transfer' },
      {
        type: 'debit',
        status: 'success',
        reference: 'Reversal: bank recalled the payment',
        counterparty_id: 'funding:bank_transfer',
      },
    ]);
  });

  it('refuses to reverse a deposit whose money has been spent', async () => {
    await ledger.requestDeposit(
      {
        depositId: 'd2',
        walletId: 'bob',
        amountPaise: rupees(50),
        method: 'upi',
        reference: 'top up',
        details: { upiId: 'b@ok' },
      },
      as('bob'),
    );
    await ledger.settleDeposit({ depositId: 'd2' }, as('admin-1'));
    await ledger.transfer(
      { transferId: 't4', fromAccountId: 'bob', toAccountId: 'alice', amountPaise: rupees(80), reference: 'all of it' },
      as('bob'),
    );
    const before = await eventCount(testDb.db);
    await expect(
      ledger.reverseTransaction({ kind: 'deposit', transactionId: 'd2', reason: 'chargeback' }, as('admin-1')),
    ).rejects.toMatchObject({ code: 'insufficient_funds' });
    expect(await eventCount(testDb.db)).toBe(before);
  });
});

describe('reversing a money request payment', () => {
  it('pays an accepted request back to the payer as MoneyRequestPaymentReversed on the request stream; pending, rejected and reversed requests are refused', async () => {
    await ledger.requestMoney(
      { requestId: 'r1', requesterId: 'carol', payerId: 'alice', amountPaise: rupees(25), reference: 'lunch' },
      as('carol'),
    );
    await expect(
      ledger.reverseTransaction({ kind: 'request', transactionId: 'r1', reason: 'not paid yet' }, as('admin-1')),
    ).rejects.toMatchObject({ code: 'not_reversible' });
    await ledger.acceptMoneyRequest({ requestId: 'r1', payerId: 'alice' }, as('alice'));
    const carolBefore = await balance('carol');
    const aliceBefore = await balance('alice');
    const result = await ledger.reverseTransaction(
      { kind: 'request', transactionId: 'r1', reason: 'charged twice' },
      as('admin-1'),
    );
    expect(result).toMatchObject({ streamId: 'request-r1', streamVersion: 2, walletIds: ['alice', 'carol'] });
    expect(await streamTypes('request-r1')).toEqual([
      'MoneyRequested',
      'MoneyRequestAccepted',
      'MoneyRequestPaymentReversed',
    ]);
    expect(await balance('carol')).toBe((carolBefore ?? 0n) - rupees(25));
    expect(await balance('alice')).toBe((aliceBefore ?? 0n) + rupees(25));
    await expect(
      ledger.reverseTransaction({ kind: 'request', transactionId: 'r1', reason: 'again' }, as('admin-1')),
    ).rejects.toMatchObject({ code: 'already_reversed' });
    // A reversed request can no longer be answered.
    await expect(ledger.rejectMoneyRequest({ requestId: 'r1', payerId: 'alice' }, as('alice'))).rejects.toMatchObject({
      code: 'request_not_pending',
    });

    await ledger.requestMoney(
      { requestId: 'r2', requesterId: 'carol', payerId: 'alice', amountPaise: rupees(5), reference: 'coffee' },
      as('carol'),
    );
    await ledger.rejectMoneyRequest({ requestId: 'r2', payerId: 'alice' }, as('alice'));
    await expect(
      ledger.reverseTransaction({ kind: 'request', transactionId: 'r2', reason: 'rejected one' }, as('admin-1')),
    ).rejects.toMatchObject({ code: 'not_reversible' });

    await projectEverything();
    const report = await verifyLedger(anyDb());
    expect(report.differences).toEqual([]);
    expect(report.totalPaise).toBe(0n);
    const { rows } = await sql<{ account_id: string; type: string; reference: string }>`
      select account_id, type, reference from read.history where stream_id = 'request-r1' order by position, account_id`.execute(
      testDb.db,
    );
    expect(rows).toEqual([
      { account_id: 'alice', type: 'debit', reference: 'lunch' },
      { account_id: 'carol', type: 'credit', reference: 'lunch' },
      { account_id: 'alice', type: 'credit', reference: 'Reversal: charged twice' },
      { account_id: 'carol', type: 'debit', reference: 'Reversal: charged twice' },
    ]);
  });
});
