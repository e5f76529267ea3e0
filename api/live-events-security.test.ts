/**
 * Security issue 39 on the live updates stream (GET /api/users/events), over real HTTP against
 * the real app and real Postgres with the projection workers running:
 *
 * - a stream lives no longer than the token it was opened with: it is ended at the first
 *   heartbeat after the token's `exp`, and gets no event after it even when no heartbeat comes;
 * - a client that resets its socket while the stream is being authorised leaves no stream
 *   behind: five such resets, and the user can still open their five streams (no 429);
 * - a `Last-Event-ID` out of a checkpoint's range (above 2^63-1) never reaches Postgres: the
 *   stream opens with `reset` (refetch everything), as for any id it cannot resume from.
 *
 * Two apps share one database: the harness's own (heartbeat every 300 ms) and a second one
 * built here with a heartbeat that never comes during a test (60 s) and its log captured, so
 * what the route and the stream do is seen apart from what the heartbeat does.
 */
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { TOO_MANY_STREAMS_RETRY_AFTER_SECONDS } from './routes/events.ts';
import { createLogger } from '../platform/logger.ts';
import { createCheckpointWaiter, type CheckpointWaiter } from '../projections/index.ts';
import { ADMIN, fundByUpi, registeredUser, signIn, startProjectedHarness, type Harness } from '../test/app-harness.ts';
import { openEvents, type SseClient } from '../test/sse-client.ts';
import { waitUntil } from '../test/wait.ts';

const STREAM_CAP = 5;

let h: Harness;
let baseUrl: string;
let quiet: FastifyInstance;
let quietUrl: string;
let quietFeed: CheckpointWaiter;
const quietLog: string[] = [];
let asha: { id: string; token: string };
let ravi: { id: string; token: string };
const opened: SseClient[] = [];

beforeAll(async () => {
  h = await startProjectedHarness({}, { live: { heartbeatMs: 300, maxStreamsPerUser: STREAM_CAP } });
  baseUrl = await h.app.listen({ host: '127.0.0.1', port: 0 });
  quietFeed = createCheckpointWaiter({ connectionString: h.database.url });
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      quietLog.push(chunk.toString());
      done();
    },
  });
  quiet = await buildApp({
    config: h.config,
    db: h.database.db,
    pool: h.database.pool,
    boss: h.boss,
    ledger: h.ledger,
    clock: h.clock,
    balances: { ofAccount: async () => 0n },
    log: createLogger('api', { level: 'warn', destination: capture }),
    live: { feed: quietFeed, heartbeatMs: 60_000, maxStreamsPerUser: STREAM_CAP },
  });
  quietUrl = await quiet.listen({ host: '127.0.0.1', port: 0 });
  const adminToken = await signIn(h, ADMIN.email, ADMIN.password);
  const user = async (email: string) => {
    const registered = await registeredUser(h, email);
    return { id: registered.id, token: registered.token ?? '' };
  };
  asha = await user('asha.expiry@example.in');
  ravi = await user('ravi.expiry@example.in');
  await fundByUpi(h, asha.token, adminToken, 5_000);
}, 120_000);

afterAll(async () => {
  for (const client of opened) client.close();
  // fetch (undici) sometimes opens a spare connection that never carries a request: the
  // server would wait out its headers timeout (a minute) for it before closing.
  const closing = quiet?.close();
  quiet?.server.closeAllConnections();
  await closing;
  await quietFeed?.close();
  await h?.close();
});

async function open(url: string, token: string | undefined, options: { lastEventId?: string } = {}) {
  const client = await openEvents(url, token, options);
  opened.push(client);
  return client;
}

/** A session token for `user` that expires in `seconds`; its expiry in epoch milliseconds. */
function shortLivedToken(user: { token: string }, seconds: number): { token: string; expiresAtMs: number } {
  const { sub, sv } = h.app.jwt.decode<{ sub: string; sv: number }>(user.token) ?? { sub: '', sv: 0 };
  const token = h.app.jwt.sign({ sub, sv }, { expiresIn: seconds });
  const { exp } = h.app.jwt.decode<{ exp: number }>(token) ?? { exp: 0 };
  return { token, expiresAtMs: exp * 1000 };
}

async function pay(from: { token: string }, to: { id: string }, rupees: number): Promise<string> {
  const response = await h.call({
    method: 'POST',
    url: '/api/transactions/transfer-funds',
    headers: { authorization: `Bearer ${from.token}` },
    payload: { receiver: to.id, amount: rupees, reference: 'expiry test', transactionPin: '1234' },
  });
  expect(response.json().success, response.body).toBe(true);
  return (response.json().data as { transactionId: string }).transactionId;
}

const isReceipt = (transactionId: string) => (event: { event?: string | undefined; data: string }) =>
  event.event === 'money-received' &&
  (JSON.parse(event.data) as { transactionId?: string }).transactionId === transactionId;

const connected = (client: SseClient) => () => client.comments.includes('connected');

it('ends a stream at the first heartbeat after its token expires', async () => {
  const { token, expiresAtMs } = shortLivedToken(ravi, 5);
  const client = await open(baseUrl, token);
  expect(client.status).toBe(200);
  await waitUntil('connected', connected(client));
  const before = await pay(asha, ravi, 1);
  await client.next('a receipt while the token is valid', isReceipt(before));
  expect(Date.now()).toBeLessThan(expiresAtMs);
  expect(client.ended()).toBe(false);

  const endedAt = await waitUntil('the server ended the expired stream', () => (client.ended() ? Date.now() : false), {
    timeoutMs: 8_000,
    intervalMs: 20,
  });
  expect(endedAt).toBeGreaterThanOrEqual(expiresAtMs);
  // The heartbeat is every 300 ms: the first one after the expiry ends it.
  expect(endedAt - expiresAtMs).toBeLessThan(2_000);
  const after = await pay(asha, ravi, 1);
  await sleep(500);
  expect(client.events.some(isReceipt(after))).toBe(false);
});

it('sends no event after the token expired, even before any heartbeat', async () => {
  const { token, expiresAtMs } = shortLivedToken(ravi, 4);
  const expiring = await open(quietUrl, token);
  const control = await open(quietUrl, ravi.token);
  expect([expiring.status, control.status]).toEqual([200, 200]);
  await waitUntil('both connected', () => connected(expiring)() && connected(control)());
  await sleep(Math.max(0, expiresAtMs - Date.now()) + 200);

  const late = await pay(asha, ravi, 2);
  await control.next('the receipt on the stream with a valid token', isReceipt(late));
  await waitUntil('the expired stream ended, at its first write after the expiry', () => expiring.ended(), {
    timeoutMs: 5_000,
  });
  expect(expiring.events.some(isReceipt(late))).toBe(false);
  control.close();
});

/** Sends the stream's request on a raw socket and resets the connection `afterMs` later. */
async function resetDuringOpen(url: string, token: string, afterMs: number): Promise<void> {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect({ host: hostname, port: Number(port) });
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(
    `GET /api/users/events HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/event-stream\r\n` +
      `Authorization: Bearer ${token}\r\n\r\n`,
  );
  if (afterMs > 0) await sleep(afterMs);
  socket.resetAndDestroy();
  await closed;
}

it('a socket reset while the stream is authorised leaves no stream counted against the user', async () => {
  const user = await registeredUser(h, 'ghost.tabs@example.in');
  const token = user.token ?? '';
  // Resets at delays spread over the authorisation's few milliseconds (the limiter's and the
  // session check's reads), many times over: some land while the request is being authorised.
  for (let round = 0; round < 5; round++)
    for (const afterMs of [0, 1, 2, 3, 4, 5, 6, 8, 10, 12]) await resetDuringOpen(quietUrl, token, afterMs);
  // The server has seen every reset (a plain request after them is answered).
  expect((await fetch(`${quietUrl}/api/health/live`)).status).toBe(200);

  const tabs: SseClient[] = [];
  for (let tab = 0; tab < STREAM_CAP; tab++) tabs.push(await open(quietUrl, token));
  expect(tabs.map((tab) => tab.status)).toEqual(Array(STREAM_CAP).fill(200));
  const refused = await open(quietUrl, token);
  expect(refused.status).toBe(429);
  expect(JSON.parse(refused.body)).toMatchObject({ success: false, code: 'too_many_streams' });
  expect(refused.headers.get('retry-after')).toBe(String(TOO_MANY_STREAMS_RETRY_AFTER_SECONDS));
  for (const tab of tabs) tab.close();
});

it('a Last-Event-ID out of a checkpoint range opens the stream with reset, and never reaches Postgres', async () => {
  const outOfRange = [
    '0.99999999999999999999',
    '1.9223372036854775808',
    '9223372036854775808.0',
    '99999999999999999999',
    '99999999999999999999.99999999999999999999',
  ];
  for (const lastEventId of outOfRange) {
    const client = await open(quietUrl, asha.token, { lastEventId });
    expect(client.status, lastEventId).toBe(200);
    const reset = await waitUntil(
      `reset for ${lastEventId}`,
      () => client.events.find((event) => event.event === 'reset'),
      { timeoutMs: 5_000, detail: () => `ended: ${client.ended()}; log: ${quietLog.join('')}` },
    );
    expect(reset.id, lastEventId).toMatch(/^\d+\.\d+$/);
    await waitUntil(`connected after ${lastEventId}`, connected(client));
    expect(client.ended(), lastEventId).toBe(false);
    client.close();
  }
  // The reply to a payment does not wait for every projection (decision 0004), so a stream that
  // is already open sees the receipt first: after that, the hub is past it, and a stream opened
  // with an out-of-range id may only start from now, never replay from the beginning.
  const control = await open(quietUrl, ravi.token);
  await waitUntil('the control stream connected', connected(control));
  const transactionId = await pay(asha, ravi, 3);
  await control.next('the receipt on a stream open before the payment', isReceipt(transactionId));
  control.close();
  const receiver = await open(quietUrl, ravi.token, { lastEventId: '0.9223372036854775808' });
  await receiver.next('the reset', (event) => event.event === 'reset');
  expect(receiver.events.some(isReceipt(transactionId))).toBe(false);
  receiver.close();
  expect(quietLog.join('')).not.toMatch(/out of range|read failed/);
});
