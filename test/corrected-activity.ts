/**
 * A ledger with every kind of event for the replay equality tests: wallets alice, bob and carol,
 * deposits by each method (one failed, one pending), transfers, money requests answered both
 * ways, and a reversal of each kind (`correctedActivity`); then random activity among eight more
 * wallets, projected incrementally in small batches (`everyKindProjected`).
 */
import type { Kysely } from 'kysely';
import { createLedger, rupees, type Ledger, type LedgerTables } from '../ledger/index.ts';
import { tablesView } from '../platform/database.ts';
import { drainAll } from '../projections/index.ts';
import { appendRandomActivity } from './random-ledger.ts';
import { allCaughtUp, drainUntil } from './read-model.ts';

const as = (actorId: string) => ({ actorId });

/** Deposits by each method (one failed), transfers, requests answered both ways, and a reversal of each kind. */
export async function correctedActivity(ledger: Ledger): Promise<void> {
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
  // A deposit still waiting for an admin.
  await ledger.requestDeposit(
    {
      depositId: 'dp',
      walletId: 'carol',
      amountPaise: rupees(9),
      method: 'bank_transfer',
      reference: 'pending',
      details: { accountNumber: '87654321', ifscCode: 'SBIN0000001', bankName: 'SBI' },
    },
    as('carol'),
  );
}

/**
 * The replay tests' ledger: `correctedActivity` among alice, bob and carol, then 1,500 random
 * appends (`seed`) among w0..w7, all projected in batches of `batchSize` - small, so what a
 * rule carries from batch to batch (running figures, answers to earlier requests and deposits)
 * is exercised - until every projection has caught up.
 */
export async function everyKindProjected(
  db: Kysely<unknown>,
  url: string,
  options: { seed: number; batchSize: number },
): Promise<void> {
  const ledger = createLedger({ db: tablesView<LedgerTables>(db) });
  for (const id of ['alice', 'bob', 'carol'])
    await ledger.openWallet({ accountId: id, displayName: `${id} name` }, as(id));
  await correctedActivity(ledger);
  const random = Array.from({ length: 8 }, (_, i) => `w${i}`);
  for (const id of random) await ledger.openWallet({ accountId: id, displayName: `Wallet ${id}` }, as(id));
  await appendRandomActivity(url, { prefix: 'x', wallets: random, count: 1_500, seed: options.seed });
  await drainAll(db, { batchSize: options.batchSize });
  await drainUntil(db, () => allCaughtUp(db));
}
