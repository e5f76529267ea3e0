/**
 * Projection "accounts" rebuilt by replay's set-based load (projector.bulk_replay_accounts,
 * in parts at once) gives the very rows its rule gives applied batch by batch: on a ledger of
 * deposits by every method (the funding accounts), failed ones, transfers, money requests
 * accepted and rejected, and reversals of each kind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase, eventCount, type TestDatabase } from '../../test/database.ts';
import { tablesView } from '../../platform/database.ts';
import { createLedger, rupees, type Ledger, type LedgerTables } from '../../ledger/index.ts';
import { drainAll, replayProjection } from '../index.ts';
import { appendRandomActivity } from '../../test/random-ledger.ts';
import { allCaughtUp, checkpointsOf, drainUntil, dumpReadTables } from '../../test/read-model.ts';

const ACCOUNTS_TABLES = ['directory', 'balances', 'statements'] as const;
const as = (actorId: string) => ({ actorId });

let testDb: TestDatabase<unknown>;

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
  const ledger = createLedger({ db: tablesView<LedgerTables>(testDb.db) });
  for (const id of ['alice', 'bob', 'carol'])
    await ledger.openWallet({ accountId: id, displayName: `${id} name` }, as(id));
  await correctedActivity(ledger);
  const random = Array.from({ length: 8 }, (_, i) => `w${i}`);
  for (const id of random) await ledger.openWallet({ accountId: id, displayName: `Wallet ${id}` }, as(id));
  await appendRandomActivity(testDb.url, { prefix: 'x', wallets: random, count: 1_500, seed: 5 });
  // Small batches: the incremental rule's running figures carry over from batch to batch.
  await drainAll(testDb.db, { batchSize: 13 });
  await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
});

afterAll(async () => {
  await testDb.drop();
});

/** Deposits by each method (one failed), transfers, requests answered both ways, and a reversal of each kind. */
async function correctedActivity(ledger: Ledger): Promise<void> {
  const methods = [
    ['upi', { upiId: 'a@ok' }],
    ['bank_transfer', { accountNumber: '12345678', ifscCode: 'HDFC0000001', bankName: 'HDFC' }],
  ] as const;
  for (const [i, [method, details]] of methods.entries()) {
    const depositId = `d${i}`;
    await ledger.requestDeposit(
      { depositId, walletId: 'alice', amountPaise: rupees(1_000 + i), method, reference: `top up ${i}`, details },
      as('alice'),
    );
    await ledger.settleDeposit({ depositId }, as('admin'));
  }
  await ledger.completeCardDeposit(
    {
      depositId: 'd2',
      walletId: 'alice',
      amountPaise: rupees(1_002),
      reference: 'card top up',
      provider: 'sandbox',
      paymentId: 'pay_1',
    },
    as('alice'),
  );
  await ledger.requestDeposit(
    {
      depositId: 'dx',
      walletId: 'bob',
      amountPaise: rupees(5),
      method: 'upi',
      reference: 'no',
      details: { upiId: 'b@ok' },
    },
    as('bob'),
  );
  await ledger.failDeposit({ depositId: 'dx', reason: 'declined' }, as('admin'));
  await ledger.transfer(
    { transferId: 't1', fromAccountId: 'alice', toAccountId: 'bob', amountPaise: rupees(200), reference: 'rent' },
    as('alice'),
  );
  await ledger.transfer(
    { transferId: 't2', fromAccountId: 'alice', toAccountId: 'carol', amountPaise: rupees(300), reference: 'food' },
    as('alice'),
  );
  await ledger.requestMoney(
    { requestId: 'r1', requesterId: 'carol', payerId: 'bob', amountPaise: rupees(50), reference: 'tea' },
    as('carol'),
  );
  await ledger.acceptMoneyRequest({ requestId: 'r1', payerId: 'bob' }, as('bob'));
  await ledger.requestMoney(
    { requestId: 'r2', requesterId: 'bob', payerId: 'carol', amountPaise: rupees(7), reference: 'bus' },
    as('bob'),
  );
  await ledger.rejectMoneyRequest({ requestId: 'r2', payerId: 'carol' }, as('carol'));
  await ledger.reverseTransaction({ kind: 'transfer', transactionId: 't2', reason: 'wrong person' }, as('admin'));
  await ledger.reverseTransaction({ kind: 'request', transactionId: 'r1', reason: 'disputed' }, as('admin'));
  await ledger.reverseTransaction({ kind: 'deposit', transactionId: 'd1', reason: 'chargeback' }, as('admin'));
}

async function accountsTables(): Promise<Record<string, string[]>> {
  const dump = await dumpReadTables(testDb.db);
  return Object.fromEntries(ACCOUNTS_TABLES.map((table) => [table, dump[table] ?? []]));
}

describe('replaying projection accounts by its set-based load', () => {
  it('gives the incremental rows, row for row, and the same checkpoint', async () => {
    const incremental = await accountsTables();
    const before = (await checkpointsOf(testDb.db))['accounts'];
    const types = await eventTypes();
    expect(types).toEqual(
      expect.arrayContaining(['TransferReversed', 'DepositReversed', 'MoneyRequestPaymentReversed', 'DepositFailed']),
    );
    expect(incremental.directory?.filter((row) => row.includes('"funding"'))).toHaveLength(3);
    expect(incremental.statements?.length).toBeGreaterThan(1_000);

    for (const parallelism of [1, 3]) {
      const report = await replayProjection(testDb.db, 'accounts', { parallelism });
      expect(report.events).toBe(await eventCount(testDb.db));
      expect(await accountsTables()).toEqual(incremental);
      expect((await checkpointsOf(testDb.db))['accounts']).toEqual(before);
    }
  });
});

async function eventTypes(): Promise<string[]> {
  const { rows } = await sql<{ type: string }>`select distinct type from ledger.events`.execute(testDb.db);
  return rows.map((row) => row.type);
}
