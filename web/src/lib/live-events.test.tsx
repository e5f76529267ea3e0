/**
 * The tab's live updates client against a scripted stream (fetch replaced, as in the other
 * web tests): the token goes in the Authorization header, never the URL; typed events are
 * delivered; a dropped stream comes back with Last-Event-ID; a 401 stops it for good. And what
 * an event does to the caches: the balance set, the money-received toast's text.
 */
import { waitFor } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { applyLiveEvent, receivedMessage } from '../app/live-cache.ts';
import type { UserRecord } from './api/current-user.ts';
import { connectLiveEvents, type LiveEvent } from './live-events.ts';
import { createQueryClient, currentUserKey } from './query-client.ts';

afterEach(() => vi.unstubAllGlobals());

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
    token: 'tok-123',
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
  connectLiveEvents({ token: 'old', onEvent: () => undefined, onReconnect: () => undefined, onRefused: refused });
  await waitFor(() => expect(refused).toHaveBeenCalledTimes(1));
  expect(opened).toHaveLength(1);
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
