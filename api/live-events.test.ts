/**
 * Live updates over server-sent events (GET /api/users/events), over real HTTP against real
 * Postgres with the projection workers running: a transfer reaches the receiver's open stream
 * (with the sender's name) and both balances; a closed stream resumes with Last-Event-ID; the
 * per-user cap refuses with the envelope; no session is a 401; admins hear of registrations
 * and deposits; a second app (its own LISTEN connection and hub, as a second API process)
 * delivers too; a sign-out ends the stream; closing the app ends its streams and does not hang;
 * admins (only) get the projections status pushed, and the result of a verify run.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCheckpointWaiter, type CheckpointWaiter } from '../projections/index.ts';
import {
  ADMIN,
  fundByUpi,
  registeredUser,
  requestUpiDeposit,
  signIn,
  startProjectedHarness,
  startSiblingApp,
  type Harness,
} from '../test/app-harness.ts';
import { openEvents, type SseClient } from '../test/sse-client.ts';
import { waitUntil } from '../test/wait.ts';

let h: Harness;
let baseUrl: string;
let adminToken: string;
let asha: { id: string; token: string };
let ravi: { id: string; token: string };
const opened: SseClient[] = [];

beforeAll(async () => {
  h = await startProjectedHarness({}, { live: { heartbeatMs: 300, maxStreamsPerUser: 3, projectionsPushMs: 200 } });
  baseUrl = await h.app.listen({ host: '127.0.0.1', port: 0 });
  adminToken = await signIn(h, ADMIN.email, ADMIN.password);
  const user = async (email: string) => {
    const registered = await registeredUser(h, email);
    return { id: registered.id, token: registered.token ?? '' };
  };
  asha = await user('asha.live@example.in');
  ravi = await user('ravi.live@example.in');
  await fundByUpi(h, asha.token, adminToken, 5_000);
}, 120_000);

afterAll(async () => {
  for (const client of opened) client.close();
  await h.close();
});

async function open(token: string | undefined, options: { lastEventId?: string; url?: string } = {}) {
  const client = await openEvents(options.url ?? baseUrl, token, options);
  opened.push(client);
  return client;
}

async function pay(from: { token: string }, to: { id: string }, rupees: number): Promise<string> {
  const response = await h.call({
    method: 'POST',
    url: '/api/transactions/transfer-funds',
    headers: { authorization: `Bearer ${from.token}` },
    payload: { receiver: to.id, amount: rupees, reference: 'live test', transactionPin: '1234' },
  });
  expect(response.json().success, response.body).toBe(true);
  return (response.json().data as { transactionId: string }).transactionId;
}

const dataOf = (event: { data: string }): Record<string, unknown> => JSON.parse(event.data) as Record<string, unknown>;
const isReceipt = (transactionId: string) => (event: { event?: string | undefined; data: string }) =>
  event.event === 'money-received' && dataOf(event).transactionId === transactionId;

it('refuses a stream without a session with the 401 envelope', async () => {
  const client = await open(undefined);
  expect(client.status).toBe(401);
  expect(JSON.parse(client.body)).toMatchObject({ success: false, code: 'unauthenticated' });
});

it("a transfer reaches the receiver's open stream with the sender's name, and both balances", async () => {
  const receiver = await open(ravi.token);
  const sender = await open(asha.token);
  expect(receiver.status).toBe(200);
  expect(receiver.headers.get('content-type')).toMatch(/^text\/event-stream/);
  expect(receiver.headers.get('x-accel-buffering')).toBe('no');
  await waitUntil('both streams connected', () => receiver.comments.length > 0 && sender.comments.length > 0);

  const transactionId = await pay(asha, ravi, 500);
  const receipt = await receiver.next('the money-received event', isReceipt(transactionId));
  expect(dataOf(receipt)).toEqual({ transactionId, amountPaise: '50000', fromId: asha.id, fromName: 'Asha Verma' });
  expect(receipt.id).toMatch(/^\d+\.\d+$/);
  const balance = await receiver.next('the balance event', (event) => event.event === 'balance');
  expect(dataOf(balance)).toEqual({ balancePaise: '50000' });
  const senderBalance = await sender.next('the sender balance', (event) => event.event === 'balance');
  expect(dataOf(senderBalance)).toEqual({ balancePaise: '450000' });
  expect(sender.events.some((event) => event.event === 'money-received')).toBe(false);
  await waitUntil('a heartbeat comment', () => receiver.comments.includes('heartbeat'));
});

it('resumes after Last-Event-ID: a closed stream gets what it missed, and nothing before', async () => {
  const first = await open(ravi.token);
  await waitUntil('connected', () => first.comments.length > 0);
  const before = await pay(asha, ravi, 10);
  const seen = await first.next('the first receipt', isReceipt(before));
  first.close();
  await waitUntil('the stream ended', () => first.ended());

  const missed = await pay(asha, ravi, 20);
  const resumed = await open(ravi.token, { lastEventId: seen.id ?? '' });
  const receipt = await resumed.next('the missed receipt', isReceipt(missed));
  expect(dataOf(receipt).amountPaise).toBe('2000');
  expect(resumed.events.some(isReceipt(before))).toBe(false);
});

it('caps the streams of one user, with the 429 envelope beyond it', async () => {
  const user = await registeredUser(h, 'many.tabs@example.in');
  const token = user.token ?? '';
  const tabs = [await open(token), await open(token), await open(token)];
  expect(tabs.map((tab) => tab.status)).toEqual([200, 200, 200]);
  const refused = await open(token);
  expect(refused.status).toBe(429);
  expect(JSON.parse(refused.body)).toMatchObject({ success: false, code: 'too_many_streams' });
  tabs[0]?.close();
  const again = await waitUntil('a stream allowed again after one closed', async () => {
    const attempt = await open(token);
    return attempt.status === 200 ? attempt : undefined;
  });
  expect(again.status).toBe(200);
});

it('tells admins of a new registration and of a pending deposit', async () => {
  const admin = await open(adminToken);
  await waitUntil('connected', () => admin.comments.length > 0);
  const newcomer = await registeredUser(h, 'newcomer.live@example.in');
  // An earlier test's registration may reach this stream late (its projection runs after its
  // reply), so each wait names the event it is for rather than taking the first of its kind.
  const opening = await admin.next(
    'admin-users',
    (event) => event.event === 'admin-users' && dataOf(event).accountId === newcomer.id,
  );
  expect(dataOf(opening)).toEqual({ accountId: newcomer.id });
  const from = admin.events.length;
  const depositId = await requestUpiDeposit(h, newcomer.token ?? '', 70);
  const pending = await admin.next(
    'admin-deposits',
    (event) => event.event === 'admin-deposits' && dataOf(event).depositId === depositId,
    from,
  );
  expect(dataOf(pending)).toEqual({ depositId });
});

it("pushes the projections' status to admins only (the Operations page polls nothing)", async () => {
  const admin = await open(adminToken);
  const customer = await open(asha.token);
  const status = await admin.next('projections', (event) => event.event === 'projections');
  const names = (dataOf(status).projections as { name: string; lagEvents: number }[]).map((p) => p.name);
  expect(names).toEqual(expect.arrayContaining(['accounts', 'history']));
  await admin.next('a second status', (event) => event.event === 'projections', admin.events.indexOf(status) + 1);
  expect(customer.events.some((event) => event.event === 'projections')).toBe(false);
});

it('regression (issue 41): a verify started in the background reaches admins as the live verify event, never customers', async () => {
  const admin = await open(adminToken);
  const customer = await open(asha.token);
  await waitUntil('both streams connected', () => admin.comments.length > 0 && customer.comments.length > 0);
  const started = await h.call({
    method: 'POST',
    url: '/api/admin/trial-balance/verify',
    headers: { authorization: `Bearer ${adminToken}`, prefer: 'respond-async' },
    payload: {},
  });
  expect(started.statusCode, started.body).toBe(202);
  const { state, previousRunId } = started.json().data as { state: string; previousRunId: string | null };
  expect(state).toBe('running');
  const result = await admin.next(
    'the verify event of the run started',
    (event) => event.event === 'verify' && BigInt(String(dataOf(event).id)) > BigInt(previousRunId ?? '0'),
  );
  expect(dataOf(result)).toMatchObject({ ok: true, differences: [], source: expect.stringMatching(/^api:/) });
  expect(customer.events.some((event) => event.event === 'verify')).toBe(false);
});

it('a sign-out ends the stream (at the next heartbeat)', async () => {
  const user = await registeredUser(h, 'leaving@example.in');
  const client = await open(user.token);
  await waitUntil('connected', () => client.comments.length > 0);
  const logout = await h.call({
    method: 'POST',
    url: '/api/users/logout',
    headers: { authorization: `Bearer ${user.token ?? ''}` },
  });
  expect(logout.statusCode).toBe(200);
  await waitUntil('the stream ended by the server', () => client.ended());
});

it('a second API process delivers too, and closing an app with open streams ends them', async () => {
  let waiter: CheckpointWaiter | undefined;
  let sibling: FastifyInstance | undefined;
  try {
    waiter = createCheckpointWaiter({ connectionString: h.database.url });
    sibling = await startSiblingApp(h, {}, { live: { feed: waiter } });
    const siblingUrl = await sibling.listen({ host: '127.0.0.1', port: 0 });
    const here = await open(ravi.token);
    const there = await open(ravi.token, { url: siblingUrl });
    await waitUntil('both connected', () => here.comments.length > 0 && there.comments.length > 0);
    const transactionId = await pay(asha, ravi, 30);
    await here.next('the receipt on the first process', isReceipt(transactionId));
    await there.next('the receipt on the second process', isReceipt(transactionId));

    await sibling.close();
    sibling = undefined;
    await waitUntil('the stream ended by the closing app', () => there.ended());
    expect(here.ended()).toBe(false);
  } finally {
    await sibling?.close();
    await waiter?.close();
  }
});
