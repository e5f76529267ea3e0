import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { createWiredLedger, type WiredLedger } from '../runtime/ledger.ts';
import { LEDGER_APPENDED_CHANNEL } from '../projections/engine/wake-up.ts';
import { rupees, type LedgerTables } from './index.ts';

let testDb: TestDatabase<LedgerTables>;
let ledger: WiredLedger;
const as = (actorId: string, idempotencyKey?: string) => ({ actorId, idempotencyKey });

beforeAll(async () => {
  testDb = await createTestDatabase<LedgerTables>();
  ledger = createWiredLedger(testDb.db);
  for (const id of ['alice', 'bob']) await ledger.openWallet({ accountId: id, displayName: id }, as(id));
});

afterAll(async () => {
  await ledger.wakeUps.flush();
  await testDb.drop();
});

async function balance(accountId: string): Promise<bigint | null> {
  const row = await testDb.db
    .selectFrom('ledger.accounts')
    .select('balance')
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  return row.balance;
}

describe('given two open wallets', () => {
  it('settles a pending UPI deposit into the wallet, drawing on the UPI funding account', async () => {
    const requested = await ledger.requestDeposit(
      {
        depositId: 'd1',
        walletId: 'alice',
        amountPaise: rupees(500),
        method: 'upi',
        reference: 'top up',
        details: { upiId: 'alice@okbank' },
      },
      as('alice'),
    );
    expect(await balance('alice')).toBe(0n);
    await ledger.settleDeposit({ depositId: requested.depositId }, as('admin'));
    expect(await balance('alice')).toBe(rupees(500));
    const funding = await testDb.db
      .selectFrom('ledger.postings')
      .select(sql<bigint>`sum(amount)::bigint`.as('total'))
      .where('account_id', '=', 'funding:upi')
      .executeTakeFirstOrThrow();
    expect(funding.total).toBe(-rupees(500));
  });

  it('moves money with a transfer and refuses to overdraw', async () => {
    await ledger.transfer(
      { transferId: 't1', fromAccountId: 'alice', toAccountId: 'bob', amountPaise: rupees(200), reference: 'rent' },
      as('alice'),
    );
    expect(await balance('alice')).toBe(rupees(300));
    expect(await balance('bob')).toBe(rupees(200));
    await expect(
      ledger.transfer(
        {
          transferId: 't2',
          fromAccountId: 'alice',
          toAccountId: 'bob',
          amountPaise: rupees(301),
          reference: 'too much',
        },
        as('alice'),
      ),
    ).rejects.toMatchObject({ code: 'insufficient_funds' });
    const appended = await testDb.db
      .selectFrom('ledger.events')
      .select('stream_id')
      .where('stream_id', '=', 'transfer-t2')
      .execute();
    expect(appended).toEqual([]);
  });

  it('wakes the projections after an appending command commits, not after a rejected one', async () => {
    await ledger.wakeUps.flush();
    const listener = new pg.Client({ connectionString: testDb.url });
    await listener.connect();
    try {
      let notifications = 0;
      listener.on('notification', () => notifications++);
      await listener.query(`listen ${LEDGER_APPENDED_CHANNEL}`);
      await expect(
        ledger.transfer(
          { transferId: 't4', fromAccountId: 'bob', toAccountId: 'nobody', amountPaise: rupees(1), reference: 'lost' },
          as('bob'),
        ),
      ).rejects.toMatchObject({ code: 'unknown_account' });
      await ledger.transfer(
        { transferId: 't3', fromAccountId: 'bob', toAccountId: 'alice', amountPaise: rupees(1), reference: 'thanks' },
        as('bob'),
      );
      await ledger.wakeUps.flush();
      await vi.waitFor(() => expect(notifications).toBe(1));
      // Not a wait for the system: time for a second notification (the rejected command's) to
      // arrive if one had been sent, to show none does.
      await sleep(100);
      expect(notifications).toBe(1);
    } finally {
      await listener.end();
    }
  });

  it('accepts a money request once, moving the money in the same event', async () => {
    await ledger.requestMoney(
      { requestId: 'r1', requesterId: 'bob', payerId: 'alice', amountPaise: rupees(50), reference: 'lunch' },
      as('bob'),
    );
    await expect(ledger.acceptMoneyRequest({ requestId: 'r1', payerId: 'bob' }, as('bob'))).rejects.toMatchObject({
      code: 'not_request_receiver',
    });
    const aliceBefore = await balance('alice');
    await ledger.acceptMoneyRequest({ requestId: 'r1', payerId: 'alice' }, as('alice'));
    expect(await balance('alice')).toBe((aliceBefore ?? 0n) - rupees(50));
    await expect(ledger.rejectMoneyRequest({ requestId: 'r1', payerId: 'alice' }, as('alice'))).rejects.toMatchObject({
      code: 'request_not_pending',
    });
  });

  it('credits a provider-confirmed card deposit once', async () => {
    const input = {
      depositId: 'c1',
      walletId: 'bob',
      amountPaise: rupees(10),
      reference: 'card',
      provider: 'sandbox',
      paymentId: 'pi_1',
    };
    const before = await balance('bob');
    await ledger.completeCardDeposit(input, as('provider:card'));
    await expect(ledger.completeCardDeposit(input, as('provider:card'))).rejects.toMatchObject({
      code: 'deposit_not_pending',
    });
    expect(await balance('bob')).toBe((before ?? 0n) + rupees(10));
  });
});
