/**
 * The money API over HTTP (spec section 7): verify account, transfer, deposits, history and
 * money requests - commands on the ledger, reads from the projections with read-your-writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  ADMIN,
  findSecrets,
  registeredUser,
  signIn,
  startProjectedHarness,
  type Harness,
  fundByUpi,
} from '../test/app-harness.ts';
import { eventCount } from '../test/database.ts';
import { verifyLedger } from '../audit/index.ts';

let harness: Harness;
let adminToken: string;
let asha: { id: string; token: string };
let ravi: { id: string; token: string };
let meena: { id: string; token: string };

beforeAll(async () => {
  // Generous read-your-writes wait: in a parallel test run, other files' transactions hold the
  // cluster-wide snapshot xmin (and so every projection) back for a while.
  harness = await startProjectedHarness({ readYourWritesTimeoutMs: 30_000 });
  adminToken = await signIn(harness, ADMIN.email, ADMIN.password);
  const user = async (email: string) => {
    const registered = await registeredUser(harness, email);
    return { id: registered.id, token: registered.token ?? '' };
  };
  asha = await user('asha@example.in');
  ravi = await user('ravi@example.in');
  meena = await user('meena@example.in');
  await fund(asha, 5_000);
  await fund(ravi, 1_000);
}, 120_000);

afterAll(async () => {
  await harness.close();
});

async function post(token: string | undefined, url: string, payload: unknown, headers: Record<string, string> = {}) {
  return harness.call({
    method: 'POST',
    url,
    payload: payload as Record<string, unknown>,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
}

async function fund(user: { token: string }, rupees: number): Promise<void> {
  await fundByUpi(harness, user.token, adminToken, rupees);
}

/** The wallet head (write model), in rupees: the authoritative "before" of a check. */
async function headBalance(user: { id: string }): Promise<number> {
  const { rows } = await sql<{ balance: bigint }>`select balance from ledger.accounts where id = ${user.id}`.execute(
    harness.database.db,
  );
  return Number(rows[0]?.balance ?? 0n) / 100;
}

/** The balance the API shows (read model); with a checkpoint, after waiting for it (read-your-writes). */
async function balanceOf(user: { token: string }, checkpoint?: string): Promise<number> {
  const info = checkpoint
    ? await post(user.token, `/api/users/get-user-info?minPosition=${checkpoint}`, undefined, {
        'content-type': 'application/json',
      })
    : await post(user.token, '/api/users/get-user-info', undefined, { 'content-type': 'application/json' });
  return (info.json().data as { balance: number }).balance;
}

async function history(user: { token: string }, query: Record<string, unknown>) {
  const response = await post(user.token, '/api/transactions/get-all-transactions-by-user', query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as {
    items: {
      _id: string;
      type: string;
      amount: number;
      sender: string;
      receiver: string;
      status: string;
      reference: string;
      counterpartyName: string | null;
    }[];
    total: number;
  };
}

const transfer = (overrides: Record<string, unknown> = {}) => ({
  receiver: ravi.id,
  amount: 100,
  reference: 'dinner',
  transactionPin: '1234',
  ...overrides,
});

describe('verify-account', () => {
  it("names an active account and flags the caller's own", async () => {
    const other = await post(asha.token, '/api/transactions/verify-account', { receiver: ravi.id });
    expect(other.json()).toMatchObject({
      success: true,
      data: { name: 'Asha Verma', accountNumber: ravi.id, isOwnAccount: false },
    });
    const own = await post(asha.token, '/api/transactions/verify-account', { receiver: asha.id });
    expect(own.json().data).toMatchObject({ isOwnAccount: true });
  });

  it('answers 404 for an unknown or suspended account', async () => {
    expect(
      (await post(asha.token, '/api/transactions/verify-account', { receiver: 'no-such-account' })).statusCode,
    ).toBe(404);
    const pending = await registeredUser(harness, 'pending@example.in', { activate: false });
    const response = await post(asha.token, '/api/transactions/verify-account', { receiver: pending.id });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ success: false, message: 'Account not found' });
  });
});

describe('transfer-funds', () => {
  it('moves money from the signed-in user and shows it at once in both histories (read-your-writes)', async () => {
    const response = await post(
      asha.token,
      '/api/transactions/transfer-funds',
      transfer({ amount: 250.5, sender: asha.id, type: 'credit', status: 'failed' }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.message).toBe('Transfer completed successfully!');
    const { transactionId, checkpoint } = body.data as { transactionId: string; checkpoint: string };
    const mine = await history(asha, { page: 1, minPosition: checkpoint });
    expect(mine.items[0]).toMatchObject({
      _id: transactionId,
      type: 'debit',
      amount: 250.5,
      sender: asha.id,
      receiver: ravi.id,
      status: 'success',
    });
    const theirs = await history(ravi, { page: 1, minPosition: checkpoint });
    expect(theirs.items[0]).toMatchObject({ _id: transactionId, type: 'credit', amount: 250.5 });
    expect(await balanceOf(asha, checkpoint)).toBe(5_000 - 250.5);
  });

  it.each([
    [{ receiver: '' }, 'Account number is required'],
    [{ amount: undefined }, 'Amount is required'],
    [{ amount: 'ten' }, 'Please enter a valid amount'],
    [{ amount: '12abc' }, 'Please enter a valid amount'],
    [{ amount: -5 }, 'Please enter a valid amount'],
    [{ amount: 10.005 }, 'Please enter a valid amount'],
    [{ amount: 0.5 }, 'Minimum transfer amount is ₹1'],
    [{ reference: '' }, 'Reference is required'],
    [{ reference: 'ab' }, 'Reference must be at least 3 characters'],
    [{ reference: 'x'.repeat(201) }, 'Reference must be at most 200 characters'],
    [{ transactionPin: '' }, 'Transaction PIN is required'],
    [{ transactionPin: '12' }, 'PIN must be at least 4 digits'],
    [{ transactionPin: '1234567' }, 'PIN must not exceed 6 digits'],
    [{ amount: 1_000_000 }, 'Insufficient balance'],
    [{ receiver: 'nobody-here' }, 'Account not found'],
  ])('%o is refused with "%s" and appends nothing', async (patch, message) => {
    const before = await eventCount(harness.database.db);
    const response = await post(asha.token, '/api/transactions/transfer-funds', transfer(patch));
    expect(response.json()).toMatchObject({ success: false, message });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(await eventCount(harness.database.db)).toBe(before);
  });

  it('refuses a forged sender with 403, a self-transfer and a wrong PIN, appending nothing', async () => {
    const before = await eventCount(harness.database.db);
    expect((await post(asha.token, '/api/transactions/transfer-funds', transfer({ sender: ravi.id }))).statusCode).toBe(
      403,
    );
    expect(
      (await post(asha.token, '/api/transactions/transfer-funds', transfer({ receiver: asha.id }))).statusCode,
    ).toBe(400);
    const wrongPin = await post(asha.token, '/api/transactions/transfer-funds', transfer({ transactionPin: '9999' }));
    expect(wrongPin.statusCode).toBe(400);
    expect(wrongPin.json().code).toBe('invalid_pin');
    expect((await post(undefined, '/api/transactions/transfer-funds', transfer())).statusCode).toBe(401);
    expect(await eventCount(harness.database.db)).toBe(before);
  });

  it('refuses a self-transfer before the PIN check: even with a wrong PIN it says so, and counts no PIN attempt', async () => {
    const failedPins = async () =>
      (
        await sql<{
          failed: number;
        }>`select failed_pin_attempts as failed from identity.users where id = ${asha.id}`.execute(harness.database.db)
      ).rows[0]?.failed;
    const before = await failedPins();
    const selfTransfer = await post(
      asha.token,
      '/api/transactions/transfer-funds',
      transfer({ receiver: asha.id, transactionPin: '9999' }),
    );
    expect(selfTransfer.statusCode).toBe(400);
    expect(selfTransfer.json()).toMatchObject({
      success: false,
      code: 'self_transfer',
      message: 'Cannot transfer to your own account',
    });
    expect(await failedPins()).toBe(before);
  });

  it('refuses an unknown or inactive payee before the PIN check: 404, and no PIN attempt counted', async () => {
    const failedPins = async (id: string) =>
      (
        await sql<{
          failed: number;
        }>`select failed_pin_attempts as failed from identity.users where id = ${id}`.execute(harness.database.db)
      ).rows[0]?.failed;
    const inactive = await registeredUser(harness, 'inactive-payee@example.in', { activate: false });
    const before = await eventCount(harness.database.db);
    const failedBefore = await failedPins(asha.id);
    for (const receiver of ['nobody-at-all', inactive.id]) {
      const refused = await post(
        asha.token,
        '/api/transactions/transfer-funds',
        transfer({ receiver, transactionPin: '9999' }),
      );
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toMatchObject({ success: false, code: 'unknown_account', message: 'Account not found' });
    }
    expect(await failedPins(asha.id)).toBe(failedBefore);
    expect(await eventCount(harness.database.db)).toBe(before);
  });

  it('honours Idempotency-Key: the retry gets the first result', async () => {
    const headers = { 'idempotency-key': 'transfer-retry-1' };
    const first = await post(asha.token, '/api/transactions/transfer-funds', transfer({ amount: 7 }), headers);
    const before = await eventCount(harness.database.db);
    const again = await post(asha.token, '/api/transactions/transfer-funds', transfer({ amount: 7 }), headers);
    expect(again.json().data).toMatchObject({
      transactionId: (first.json().data as { transactionId: string }).transactionId,
      replayed: true,
    });
    expect(await eventCount(harness.database.db)).toBe(before);
  });

  it('lets exactly 10 of 50 concurrent transfers through from a wallet that can afford 10', async () => {
    const poor = await registeredUser(harness, 'poor@example.in');
    const payer = { id: poor.id, token: poor.token ?? '' };
    await fund(payer, 100);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post(payer.token, '/api/transactions/transfer-funds', transfer({ amount: 10, reference: `race ${i}` })),
      ),
    );
    const succeeded = responses.filter((r) => r.statusCode === 200);
    expect(succeeded).toHaveLength(10);
    for (const failed of responses.filter((r) => r.statusCode !== 200))
      expect(failed.json().message).toBe('Insufficient balance');
    const { rows } = await sql<{ balance: bigint }>`select balance from ledger.accounts where id = ${payer.id}`.execute(
      harness.database.db,
    );
    expect(rows[0]?.balance).toBe(0n);
  });
});

describe('deposit-funds', () => {
  const base = { amount: 500, reference: 'salary', transactionPin: '1234' };

  it('records a bank transfer as pending whatever status the client sends, and credits only when settled (by id or stream id)', async () => {
    const before = await headBalance(meena);
    const response = await post(meena.token, '/api/transactions/deposit-funds', {
      ...base,
      paymentMethod: 'bank_transfer',
      status: 'success',
      type: 'deposit',
      userId: asha.id,
      timestamp: new Date().toISOString(),
      bankDetails: { accountNumber: '123456789012', ifscCode: 'sbin0001234', bankName: 'SBI' },
      upiDetails: { upiId: '' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const { transactionId, checkpoint } = response.json().data as { transactionId: string; checkpoint: string };
    expect((await history(meena, { page: 1, minPosition: checkpoint })).items[0]).toMatchObject({
      _id: transactionId,
      type: 'deposit',
      status: 'pending',
      sender: meena.id,
      receiver: meena.id,
    });
    expect(await balanceOf(meena, checkpoint)).toBe(before);
    // Settled by its stream id, as the ledger explorer and the approvals show it.
    const settled = await post(adminToken, '/api/transactions/settle-deposit', {
      depositId: `deposit-${transactionId}`,
    });
    expect(settled.statusCode, settled.body).toBe(200);
    expect(settled.json().data).toMatchObject({ depositId: transactionId });
    const after = (settled.json().data as { checkpoint: string }).checkpoint;
    expect((await history(meena, { page: 1, minPosition: after })).items[0]).toMatchObject({
      _id: transactionId,
      status: 'success',
    });
    expect(await balanceOf(meena, after)).toBe(before + 500);
    expect((await post(adminToken, '/api/transactions/settle-deposit', { depositId: transactionId })).statusCode).toBe(
      409,
    );
    expect((await post(meena.token, '/api/transactions/settle-deposit', { depositId: transactionId })).statusCode).toBe(
      403,
    );
  });

  it('fails a pending UPI deposit with a reason, crediting nothing', async () => {
    const response = await post(meena.token, '/api/transactions/deposit-funds', {
      ...base,
      paymentMethod: 'upi',
      upiDetails: { upiId: 'meena@okaxis' },
    });
    const { transactionId } = response.json().data as { transactionId: string };
    expect((await post(adminToken, '/api/transactions/fail-deposit', { depositId: transactionId })).statusCode).toBe(
      400,
    );
    const failed = await post(adminToken, '/api/transactions/fail-deposit', {
      depositId: transactionId,
      reason: 'UPI reference not found',
    });
    const { checkpoint } = failed.json().data as { checkpoint: string };
    expect((await history(meena, { page: 1, minPosition: checkpoint })).items[0]).toMatchObject({
      _id: transactionId,
      status: 'failed',
    });
  });

  it.each([
    [{ paymentMethod: 'upi', upiDetails: { upiId: 'bad' } }, 'Please enter a valid UPI ID'],
    [
      {
        paymentMethod: 'bank_transfer',
        bankDetails: { accountNumber: '1234', ifscCode: 'SBIN0001234', bankName: 'SBI' },
      },
      'Account number must be at least 8 digits',
    ],
    [
      {
        paymentMethod: 'bank_transfer',
        bankDetails: { accountNumber: '12345678', ifscCode: 'SBIN1234567', bankName: 'SBI' },
      },
      'Please enter a valid IFSC code',
    ],
    [
      {
        paymentMethod: 'bank_transfer',
        bankDetails: { accountNumber: '12345678', ifscCode: 'SBIN0001234', bankName: '' },
      },
      'Bank name is required',
    ],
    [
      { paymentMethod: 'upi', upiDetails: { upiId: 'ok@bank' }, amount: 100_001 },
      'Maximum deposit amount is ₹1,00,000',
    ],
    [{ paymentMethod: 'upi', upiDetails: { upiId: 'ok@bank' }, amount: 0.99 }, 'Minimum deposit amount is ₹1'],
    [
      { paymentMethod: 'upi', upiDetails: { upiId: 'ok@bank' }, reference: 'no' },
      'Reference must be at least 3 characters',
    ],
    [{ paymentMethod: 'cash' }, 'Please choose a payment method: bank_transfer, upi or card'],
  ])('%o is refused with "%s" and appends nothing', async (patch, message) => {
    const before = await eventCount(harness.database.db);
    const response = await post(meena.token, '/api/transactions/deposit-funds', { ...base, ...patch });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, message });
    expect(await eventCount(harness.database.db)).toBe(before);
  });

  it('credits a sandbox card payment at once and refuses a declined card', async () => {
    const before = await headBalance(meena);
    const paid = await post(meena.token, '/api/transactions/deposit-funds', {
      ...base,
      amount: 42,
      paymentMethod: 'card',
      paymentMethodId: 'pm_sandbox_4242',
    });
    expect(paid.json()).toMatchObject({
      success: true,
      message: 'Card deposit successful! Your account has been credited.',
    });
    expect(await balanceOf(meena, (paid.json().data as { checkpoint: string }).checkpoint)).toBe(before + 42);
    const eventsBefore = await eventCount(harness.database.db);
    const declined = await post(meena.token, '/api/transactions/deposit-funds', {
      ...base,
      paymentMethod: 'card',
      paymentMethodId: 'pm_sandbox_9995',
    });
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toMatchObject({ success: false, message: 'Insufficient funds on your card.' });
    expect(await eventCount(harness.database.db)).toBe(eventsBefore);
  });
});

describe('history', () => {
  it('pages by 10 with the total, filters by type, searches reference and id', async () => {
    const searcher = await registeredUser(harness, 'pager@example.in');
    const user = { id: searcher.id, token: searcher.token ?? '' };
    await fund(user, 1_000);
    let last = '';
    for (let i = 0; i < 12; i++) {
      const response = await post(
        user.token,
        '/api/transactions/transfer-funds',
        transfer({ amount: 1 + i, reference: i === 5 ? 'special groceries' : `payment ${i}` }),
      );
      last = (response.json().data as { checkpoint: string }).checkpoint;
    }
    const first = await history(user, { page: 1, minPosition: last });
    expect(first.total).toBe(13);
    expect(first.items).toHaveLength(10);
    expect(first.items[0]?.amount).toBe(12);
    expect((await history(user, { page: 2 })).items).toHaveLength(3);
    expect((await history(user, { page: 1, type: 'debit' })).total).toBe(12);
    expect((await history(user, { page: 1, type: 'deposit' })).total).toBe(1);
    const found = await history(user, { page: 1, search: 'GROCERIES' });
    expect(found.items.map((item) => item.reference)).toEqual(['special groceries']);
    // By the id's random end, as the app shows it (a UUIDv7's first 12 characters are its millisecond).
    const byId = await history(user, { page: 1, search: found.items[0]?._id.slice(-12) });
    expect([byId.total, byId.items[0]?._id]).toEqual([1, found.items[0]?._id]);
    // What the row shows: the amount as typed (₹12 was the last payment) and the payee's name.
    for (const typed of ['₹12', '12.00', 'Rs 12'])
      expect(
        (await history(user, { page: 1, search: typed })).items.map((item) => item.amount),
        typed,
      ).toEqual([12]);
    const payee = found.items[0]?.counterpartyName ?? '';
    expect(payee.length).toBeGreaterThan(2);
    expect((await history(user, { page: 1, search: payee.toUpperCase() })).total).toBe(12);
    const plain = await post(user.token, '/api/transactions/get-all-transactions-by-user', { userId: asha.id });
    const list = plain.json().data as { sender: string; receiver: string }[];
    expect(Array.isArray(list)).toBe(true);
    expect(list).toHaveLength(13);
    for (const row of list) expect([row.sender, row.receiver]).toContain(user.id);
  });
});

describe('money requests', () => {
  it('sends, lists with {_id, firstName, lastName} only, and accepts once when two acceptances race', async () => {
    const sent = await post(ravi.token, '/api/requests/send-request', {
      receiver: asha.id,
      amount: 75.25,
      reference: 'cab share',
    });
    expect(sent.json()).toMatchObject({ success: true, message: 'Request sent successfully!' });
    const { requestId, checkpoint } = sent.json().data as { requestId: string; checkpoint: string };
    const listed = await harness.call({
      method: 'GET',
      url: `/api/requests/get-all-requests-by-user?minPosition=${checkpoint}`,
      headers: { authorization: `Bearer ${asha.token}` },
    });
    const request = (
      listed.json().data as { _id: string; sender: object; receiver: object; amount: number; status: string }[]
    ).find((r) => r._id === requestId);
    expect(request).toMatchObject({
      amount: 75.25,
      status: 'pending',
      sender: { _id: ravi.id, firstName: 'Asha', lastName: 'Verma' },
      receiver: { _id: asha.id },
    });
    expect(Object.keys(request?.sender ?? {}).sort()).toEqual(['_id', 'firstName', 'lastName']);

    const before = await headBalance(ravi);
    expect(
      (
        await post(ravi.token, '/api/requests/update-request-status', {
          requestId,
          status: 'accepted',
          transactionPin: '1234',
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await post(asha.token, '/api/requests/update-request-status', { requestId, status: 'accepted' })).json().message,
    ).toBe('Transaction PIN is required');
    const answers = await Promise.all([
      post(asha.token, '/api/requests/update-request-status', {
        requestId,
        status: 'accepted',
        transactionPin: '1234',
      }),
      post(asha.token, '/api/requests/update-request-status', {
        requestId,
        status: 'accepted',
        transactionPin: '1234',
      }),
    ]);
    const accepted = answers.filter((a) => a.statusCode === 200);
    expect(accepted).toHaveLength(1);
    expect(answers.find((a) => a.statusCode !== 200)?.json().message).toBe('Request has already been processed');
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from ledger.events where stream_id = ${`request-${requestId}`} and type = 'MoneyRequestAccepted'`.execute(
      harness.database.db,
    );
    expect(rows[0]?.n).toBe(1);
    expect(await balanceOf(ravi, (accepted[0]?.json().data as { checkpoint: string }).checkpoint)).toBe(before + 75.25);
  });

  it('keeps a request pending when the payer cannot afford it, and lets it be rejected', async () => {
    const sent = await post(asha.token, '/api/requests/send-request', {
      receiver: ravi.id,
      amount: 1_000_000,
      reference: 'a big ask',
    });
    const { requestId } = sent.json().data as { requestId: string };
    const accept = await post(ravi.token, '/api/requests/update-request-status', {
      requestId,
      status: 'accepted',
      transactionPin: '1234',
    });
    expect(accept.json()).toMatchObject({ success: false, message: 'Insufficient balance to accept the request' });
    const rejected = await post(ravi.token, '/api/requests/update-request-status', { requestId, status: 'rejected' });
    expect(rejected.json()).toMatchObject({ success: true, message: 'Request rejected successfully' });
  });

  it.each([
    [{ receiver: '' }, 'Account number is required'],
    [{ amount: 0 }, 'Please enter a valid amount greater than 0'],
    [{ amount: 1_000_000.01 }, 'Amount cannot exceed ₹10,00,000'],
    [{ reference: 'no' }, 'Reference must be at least 3 characters'],
    [{ reference: 'x'.repeat(501) }, 'Reference must be at most 500 characters'],
    [{ receiver: 'SELF' }, 'Cannot send request to yourself'],
  ])('%o is refused with "%s"', async (patch, message) => {
    const payload = { receiver: asha.id, amount: 10, reference: 'lunch', ...patch };
    if (payload.receiver === 'SELF') payload.receiver = ravi.id;
    const before = await eventCount(harness.database.db);
    const response = await post(ravi.token, '/api/requests/send-request', payload);
    expect(response.json()).toMatchObject({ success: false, message });
    expect(await eventCount(harness.database.db)).toBe(before);
  });
});

describe('after the whole suite', () => {
  it('the ledger verifies: heads, projections and zero sums agree', async () => {
    const replies = harness.replies;
    expect(findSecrets(replies, [])).toEqual([]);
    // The workers apply the last commands' events when the xmin gate lets them through: wait
    // for projections and ledger to agree, within a bound.
    let report = await verifyLedger(harness.database.db);
    await expect
      .poll(
        async () => {
          report = await verifyLedger(harness.database.db);
          return report.differences;
        },
        { timeout: 30_000, interval: 100 },
      )
      .toEqual([]);
    expect(report.totalPaise).toBe(0n);
  });
});
