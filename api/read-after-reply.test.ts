/**
 * Reads consistent after every reply, without tokens: a client written against the spec
 * sends no `minPosition`, and still reads its own and its counterparty's writes on the very
 * first read after each command's reply - transfer, money request sent, rejected and
 * accepted, deposit settled by an admin, reversal. The projector here pauses 150 ms in every
 * batch, so a reply that did not wait for the projections would be read stale every time.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN, registeredUser, signIn, startProjectedHarness, type Harness } from '../test/app-harness.ts';

let h: Harness;
let adminToken: string;
let asha: { id: string; token: string };
let ravi: { id: string; token: string };

beforeAll(async () => {
  h = await startProjectedHarness({}, { projector: { pauseBeforeCommitMs: 150 } });
  adminToken = await signIn(h, ADMIN.email, ADMIN.password);
  const user = async (email: string) => {
    const registered = await registeredUser(h, email);
    return { id: registered.id, token: registered.token ?? '' };
  };
  asha = await user('asha@example.in');
  ravi = await user('ravi@example.in');
}, 120_000);

afterAll(async () => {
  await h.close();
});

async function post(token: string, url: string, payload?: Record<string, unknown>) {
  const response = await h.call({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(payload ? { payload } : {}),
  });
  expect(response.json().success, `${url}: ${response.body}`).toBe(true);
  return response.json().data as Record<string, unknown>;
}

async function balance(token: string): Promise<number> {
  return (await post(token, '/api/users/get-user-info')).balance as number;
}

async function history(token: string): Promise<{ _id: string; status: string; type: string; amount: number }[]> {
  return (await post(token, '/api/transactions/get-all-transactions-by-user', {})) as unknown as {
    _id: string;
    status: string;
    type: string;
    amount: number;
  }[];
}

async function requests(token: string): Promise<{ _id: string; status: string }[]> {
  const response = await h.call({
    method: 'GET',
    url: '/api/requests/get-all-requests-by-user',
    headers: { authorization: `Bearer ${token}` },
  });
  return response.json().data as { _id: string; status: string }[];
}

it('a deposit settled by an admin is in the balance and the history at the first read', async () => {
  const deposit = await post(asha.token, '/api/transactions/deposit-funds', {
    amount: 5_000,
    reference: 'salary',
    transactionPin: '1234',
    paymentMethod: 'upi',
    upiDetails: { upiId: 'asha@okbank' },
  });
  expect((await history(asha.token)).find((row) => row._id === deposit.transactionId)?.status).toBe('pending');
  await post(adminToken, '/api/transactions/settle-deposit', { depositId: deposit.transactionId });
  expect(await balance(asha.token)).toBe(5_000);
  expect((await history(asha.token)).find((row) => row._id === deposit.transactionId)?.status).toBe('success');
});

it('a transfer is in both balances and both histories at the first read', async () => {
  const sent = await post(asha.token, '/api/transactions/transfer-funds', {
    receiver: ravi.id,
    amount: 300,
    reference: 'concert tickets',
    transactionPin: '1234',
  });
  expect(await balance(asha.token)).toBe(4_700);
  expect(await balance(ravi.token)).toBe(300);
  expect((await history(ravi.token)).map((row) => row._id)).toContain(sent.transactionId);
  expect((await history(asha.token)).map((row) => row._id)).toContain(sent.transactionId);
});

it('a money request, its rejection and an acceptance show in both lists, balances and histories at once', async () => {
  await post(ravi.token, '/api/requests/send-request', { receiver: asha.id, amount: 120, reference: 'lunch share' });
  const received = await requests(asha.token);
  const first = received.find((row) => row.status === 'pending');
  expect(first).toBeDefined();
  await post(asha.token, '/api/requests/update-request-status', { requestId: first?._id, status: 'rejected' });
  expect((await requests(ravi.token)).find((row) => row._id === first?._id)?.status).toBe('rejected');

  await post(ravi.token, '/api/requests/send-request', { receiver: asha.id, amount: 80, reference: 'cab share' });
  const second = (await requests(asha.token)).find((row) => row.status === 'pending');
  await post(asha.token, '/api/requests/update-request-status', {
    requestId: second?._id,
    status: 'accepted',
    transactionPin: '1234',
  });
  expect((await requests(ravi.token)).find((row) => row._id === second?._id)?.status).toBe('accepted');
  expect(await balance(ravi.token)).toBe(380);
  expect(await balance(asha.token)).toBe(4_620);
});

it("an admin's reversal is in both histories and balances at once", async () => {
  const sent = await post(asha.token, '/api/transactions/transfer-funds', {
    receiver: ravi.id,
    amount: 20,
    reference: 'paid twice',
    transactionPin: '1234',
  });
  await post(adminToken, '/api/admin/reverse', {
    transactionId: sent.transactionId,
    kind: 'transfer',
    reason: 'duplicate',
  });
  expect(await balance(asha.token)).toBe(4_620);
  expect((await history(ravi.token)).map((row) => row._id)).toContain(`${sent.transactionId as string}-reversal`);
});
