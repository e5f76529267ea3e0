/**
 * The tab's live updates client against a scripted stream (fetch replaced, as in the other
 * web tests): the token goes in the Authorization header, never the URL; typed events are
 * delivered; a dropped stream comes back with Last-Event-ID and the token the app holds then; a
 * 401 stops it for good; a 429 waits for its Retry-After. And what an event does to the
 * caches: the balance set, the money-received toast's text.
 */
import { waitFor } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { applyLiveEvent, receivedMessage } from '../app/live-cache.ts';
import type { UserRecord } from './api/current-user.ts';
import { connectLiveEvents, type LiveEvent } from './live-events.ts';
import { createQueryClient, currentUserKey } from './query-client.ts';
import { rateLimitedUntil } from './rate-limit.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

interface Opened {
  url: string;
  headers: Record<string, string>;
}

function scriptedServer(replies: (() => Response)[]): Opened[] {
  const opened: Opened[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    opened.push({ url, headers: (init.headers ?? {}) as Record<string, string> });
    const next = replies.shift();
    if (next) return next();
    // Nothing more scripted: a stream that stays open until aborted.
    return new Response(new ReadableStream({ start: () => undefined }), { status: 200 });
  });
  return opened;
}

const eventStream = (text: string): Response =>
  new Response(text, { status: 200, headers: { 'content-type': 'text/event-stream' } });

const RECEIPT =
  'id: 7.42\nevent: money-received\ndata: {"transactionId":"t1","amountPaise":"50000","fromId":"a1","fromName":"Asha Rao"}\n\n';

it('sends the token in the header, delivers typed events and resumes after a drop with Last-Event-ID', async () => {
  const opened = scriptedServer([() => eventStream(`: connected\n\n${RECEIPT}event: unknown\ndata: {}\n\n`)]);
  const events: LiveEvent[] = [];
  const connection = connectLiveEvents({
    token: () => 'tok-123',
    onEvent: (event) => events.push(event),
    onReconnect: () => undefined,
    onRefused: () => undefined,
  });
  try {
    await waitFor(() => expect(opened).toHaveLength(2), { timeout: 5_000 });
    expect(opened[0]?.url).toBe('/api/users/events');
    expect(opened[0]?.headers.authorization).toBe('Bearer tok-123');
    expect(opened[0]?.headers['last-event-id']).toBeUndefined();
    expect(opened[1]?.headers['last-event-id']).toBe('7.42');
    expect(events).toEqual([
      {
        name: 'money-received',
        data: { transactionId: 't1', amountPaise: '50000', fromId: 'a1', fromName: 'Asha Rao' },
      },
    ]);
  } finally {
    connection.stop();
  }
});

it('stops for good when the session is refused', async () => {
  const opened = scriptedServer([
    () => new Response('{"success":false,"message":"x","code":"token_invalid"}', { status: 401 }),
  ]);
  const refused = vi.fn();
  connectLiveEvents({ token: () => 'old', onEvent: () => undefined, onReconnect: () => undefined, onRefused: refused });
  await waitFor(() => expect(refused).toHaveBeenCalledTimes(1));
  expect(opened).toHaveLength(1);
});

const refusal = (status: number, code: string, retryAfter?: string) => (): Response =>
  new Response(JSON.stringify({ success: false, message: 'x', code }), {
    status,
    headers: { 'content-type': 'application/json', ...(retryAfter ? { 'retry-after': retryAfter } : {}) },
  });

it('reconnects with the token the app holds now, not the one it started with', async () => {
  vi.useFakeTimers();
  const opened = scriptedServer([() => eventStream(`: connected\n\n${RECEIPT}`)]);
  let current = 'tok-old';
  const connection = connectLiveEvents({
    token: () => current,
    onEvent: () => undefined,
    onReconnect: () => undefined,
    onRefused: () => undefined,
  });
  try {
    await vi.advanceTimersByTimeAsync(0);
    expect(opened.map((open) => open.headers.authorization)).toEqual(['Bearer tok-old']);
    // The server ended the stream (the token expired); meanwhile the app got a new token.
    current = 'tok-new';
    await vi.advanceTimersByTimeAsync(1_000);
    expect(opened.map((open) => open.headers.authorization)).toEqual(['Bearer tok-old', 'Bearer tok-new']);
    expect(opened[1]?.headers['last-event-id']).toBe('7.42');
  } finally {
    connection.stop();
  }
});

it("waits for a 429's Retry-After (with jitter, never less) before opening again", async () => {
  vi.useFakeTimers();
  const opened = scriptedServer([refusal(429, 'too_many_streams', '20')]);
  const connection = connectLiveEvents({
    token: () => 'tok',
    onEvent: () => undefined,
    onReconnect: () => undefined,
    onRefused: () => undefined,
  });
  try {
    await vi.advanceTimersByTimeAsync(0);
    expect(opened).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(19_900);
    expect(opened).toHaveLength(1);
    // Retry-After plus at most a fifth of it.
    await vi.advanceTimersByTimeAsync(4_200);
    expect(opened).toHaveLength(2);
    // too_many_streams is this stream's cap, not the account's budget: other reads go on.
    expect(rateLimitedUntil()).toBe(0);
  } finally {
    connection.stop();
  }
});

it('a rate-limited open holds every read back until Retry-After; a huge Retry-After is bounded', async () => {
  vi.useFakeTimers();
  const opened = scriptedServer([refusal(429, 'rate_limited', '86400')]);
  const connection = connectLiveEvents({
    token: () => 'tok',
    onEvent: () => undefined,
    onReconnect: () => undefined,
    onRefused: () => undefined,
  });
  try {
    await vi.advanceTimersByTimeAsync(0);
    expect(opened).toHaveLength(1);
    expect(rateLimitedUntil()).toBeGreaterThan(Date.now());
    await vi.advanceTimersByTimeAsync(14 * 60_000);
    expect(opened).toHaveLength(1);
    // At most 15 minutes (the limiter's window) and its jitter, not a day.
    await vi.advanceTimersByTimeAsync(4 * 60_000);
    expect(opened).toHaveLength(2);
  } finally {
    connection.stop();
  }
});

it('stops when the app holds no token any more', async () => {
  vi.useFakeTimers();
  const opened = scriptedServer([]);
  const refused = vi.fn();
  connectLiveEvents({ token: () => null, onEvent: () => undefined, onReconnect: () => undefined, onRefused: refused });
  await vi.advanceTimersByTimeAsync(5_000);
  expect(opened).toHaveLength(0);
  expect(refused).toHaveBeenCalledTimes(1);
});

it('sets the balance in the cache and toasts "₹500 received from Asha Rao"', async () => {
  const client = createQueryClient();
  client.setQueryData(currentUserKey, { _id: 'u1', balance: 0 } as UserRecord);
  const toasts: string[] = [];
  const notify = (toast: { message: string }) => toasts.push(toast.message);
  await applyLiveEvent(client, notify, { name: 'balance', data: { balancePaise: '50050' } });
  await applyLiveEvent(client, notify, {
    name: 'money-received',
    data: { transactionId: 't1', amountPaise: '50000', fromId: 'a1', fromName: 'Asha Rao' },
  });
  expect(client.getQueryData<UserRecord>(currentUserKey)?.balance).toBe(500.5);
  expect(toasts).toEqual(['₹500 received from Asha Rao']);
  expect(receivedMessage('12345', 'Ravi')).toBe('₹123.45 received from Ravi');
});
