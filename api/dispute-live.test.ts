/**
 * Each step of a dispute reaches the payer's open live stream (GET /api/users/events) as a
 * `dispute` event - raised, upheld with its reversal waiting for a second admin, rejected - and
 * an admin's stream gets `admin-disputes` (the queue changed); the payee hears nothing of it.
 * Real HTTP, real Postgres, the projections and the live hub running.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { EventSourceMessage } from 'eventsource-parser';
import { sql } from 'kysely';
import {
  ADMIN,
  registeredUser,
  signIn,
  startProjectedHarness,
  verifierToken,
  type Harness,
} from '../test/app-harness.ts';
import { openEvents, type SseClient } from '../test/sse-client.ts';

let h: Harness;
let baseUrl: string;
let adminToken: string;
let asha: { id: string; token: string };
let ravi: { id: string; token: string };
const opened: SseClient[] = [];

function call(token: string, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) {
  return h.call({ method, url, ...(payload ? { payload } : {}), headers: { authorization: `Bearer ${token}` } });
}

async function open(token: string): Promise<SseClient> {
  const client = await openEvents(baseUrl, token);
  opened.push(client);
  return client;
}

beforeAll(async () => {
  // ₹1,000: the ₹1,500 payment's reversal waits for a second admin.
  h = await startProjectedHarness(
    { adminApprovalThresholdPaise: 100_000n },
    { live: { heartbeatMs: 300, maxStreamsPerUser: 3, projectionsPushMs: 200 } },
  );
  baseUrl = await h.app.listen({ host: '127.0.0.1', port: 0 });
  adminToken = await signIn(h, ADMIN.email, ADMIN.password);
  await verifierToken(h);
  const user = async (email: string) => {
    const registered = await registeredUser(h, email);
    return { id: registered.id, token: registered.token ?? '' };
  };
  asha = await user('asha.dispute-live@example.in');
  ravi = await user('ravi.dispute-live@example.in');
  const funded = await call(asha.token, 'POST', '/api/transactions/deposit-funds', {
    amount: 5000,
    reference: 'card top up',
    transactionPin: '1234',
    paymentMethod: 'card',
    paymentMethodId: 'pm_card_visa',
  });
  expect(funded.statusCode, funded.body).toBe(200);
}, 120_000);

afterAll(async () => {
  for (const client of opened) client.close();
  await h.close();
});

function disputeEvent(transactionId: string, status: string) {
  return (event: EventSourceMessage) =>
    event.event === 'dispute' && event.data === JSON.stringify({ transactionId, status });
}

async function pay(rupees: number): Promise<string> {
  const paid = await call(asha.token, 'POST', '/api/transactions/transfer-funds', {
    receiver: ravi.id,
    amount: rupees,
    reference: 'for the dispute',
    transactionPin: '1234',
  });
  expect(paid.statusCode, paid.body).toBe(200);
  return (paid.json().data as { transactionId: string }).transactionId;
}

async function raise(transferId: string): Promise<string> {
  const raised = await call(asha.token, 'POST', `/api/transactions/${transferId}/dispute`, { reason: 'never arrived' });
  expect(raised.statusCode, raised.body).toBe(201);
  return (raised.json().data as { id: string }).id;
}

it('tells the payer each step - raised, upheld awaiting approval, rejected - and admins that the queue changed', async () => {
  const payer = await open(asha.token);
  const payee = await open(ravi.token);
  const admin = await open(adminToken);

  const upheldId = await pay(1_500);
  await raise(upheldId);
  await payer.next('raised', disputeEvent(upheldId, 'open'));
  await admin.next('the queue changed', (event) => event.event === 'admin-disputes');
  const filed = await call(adminToken, 'POST', `/api/admin/disputes/${(await openDisputeOf(upheldId)).id}/reverse`, {
    reason: 'refund the payer',
  });
  expect(filed.statusCode, filed.body).toBe(202);
  await payer.next('upheld, awaiting approval', disputeEvent(upheldId, 'awaiting_approval'));

  const rejectedId = await pay(100);
  const disputeId = await raise(rejectedId);
  const rejected = await call(adminToken, 'POST', `/api/admin/disputes/${disputeId}/reject`, { reason: 'delivered' });
  expect(rejected.statusCode, rejected.body).toBe(200);
  await payer.next('rejected', disputeEvent(rejectedId, 'rejected'));

  // The payee's stream has the money's events, never the payer's dispute.
  await payee.next(
    'the second payment',
    (event) => event.event === 'money-received' && event.data.includes(rejectedId),
  );
  expect(payee.events.filter((event) => event.event === 'dispute')).toEqual([]);
});

it('tells the payer that their upheld dispute is open again when a second admin turns the reversal down', async () => {
  const payer = await open(asha.token);
  const transferId = await pay(1_200);
  const disputeId = await raise(transferId);
  const filed = await call(adminToken, 'POST', `/api/admin/disputes/${disputeId}/reverse`, { reason: 'refund it' });
  expect(filed.statusCode, filed.body).toBe(202);
  const approvalId = (filed.json().data as { dispute: { approvalId: string } }).dispute.approvalId;
  await payer.next('upheld, awaiting approval', disputeEvent(transferId, 'awaiting_approval'));
  const from = payer.events.length;

  const turnedDown = await call(await verifierToken(h), 'POST', `/api/admin/approvals/${approvalId}/reject`, {
    reason: 'Goods were delivered',
  });
  expect(turnedDown.statusCode, turnedDown.body).toBe(200);
  await payer.next('open again', disputeEvent(transferId, 'open'), from);

  // The ledger says so, with the second admin's reason; no money moved.
  const { rows } = await sql<{ type: string; data: { reason: string | null; approvalId: string } }>`
    select type, data from ledger.events where stream_id = ${`transfer-${transferId}`} order by stream_version`.execute(
    h.database.db,
  );
  expect(rows.map((row) => row.type)).toEqual([
    'TransferCompleted',
    'DisputeRaised',
    'DisputeUpheld',
    'DisputeReopened',
  ]);
  expect(rows[3]?.data).toMatchObject({ reason: 'Goods were delivered', approvalId });
  const detail = (await call(asha.token, 'GET', `/api/transactions/${transferId}`)).json().data;
  expect(detail).toMatchObject({ dispute: { status: 'open', approvalId: null }, reversedAt: null });
  // Open plainly: an admin may uphold it again, which files a new request.
  const again = await call(adminToken, 'POST', `/api/admin/disputes/${disputeId}/reverse`, { reason: 'refund it' });
  expect(again.statusCode, again.body).toBe(202);
  await payer.next('upheld again', disputeEvent(transferId, 'awaiting_approval'), from);
});

async function openDisputeOf(transactionId: string): Promise<{ id: string }> {
  const list = await call(adminToken, 'GET', '/api/admin/disputes?status=open');
  const found = (list.json().data as { id: string; transactionId: string }[]).find(
    (dispute) => dispute.transactionId === transactionId,
  );
  if (!found) throw new Error(`no open dispute of ${transactionId}`);
  return found;
}
