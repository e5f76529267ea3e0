/**
 * A live updates client for server tests: opens GET /api/users/events over real HTTP with the
 * Authorization header (and Last-Event-ID), parses the stream with eventsource-parser, and
 * keeps every event and comment, for the tests to wait on (test/wait.ts).
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { waitUntil } from './wait.ts';

export interface SseClient {
  status: number;
  headers: Headers;
  /** The refusal's body when the stream was not opened. */
  body: string;
  events: EventSourceMessage[];
  comments: string[];
  /** True once the server ended the stream. */
  ended(): boolean;
  /** The first event (from `from` on) that matches; waits for it. */
  next(what: string, match: (event: EventSourceMessage) => boolean, from?: number): Promise<EventSourceMessage>;
  close(): void;
}

export async function openEvents(
  baseUrl: string,
  token: string | undefined,
  options: { lastEventId?: string } = {},
): Promise<SseClient> {
  const abort = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.lastEventId) headers['last-event-id'] = options.lastEventId;
  const response = await fetch(`${baseUrl}/api/users/events`, { headers, signal: abort.signal });
  const events: EventSourceMessage[] = [];
  const comments: string[] = [];
  let done = false;
  let body = '';
  if (response.ok && response.body) {
    const parser = createParser({ onEvent: (event) => events.push(event), onComment: (text) => comments.push(text) });
    void (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
          parser.feed(decoder.decode(chunk, { stream: true }));
      } catch {
        // Aborted by close(), or the connection dropped: either way the stream is over.
      }
      done = true;
    })();
  } else {
    body = await response.text();
    done = true;
  }
  return {
    status: response.status,
    headers: response.headers,
    body,
    events,
    comments,
    ended: () => done,
    next: (what, match, from = 0) =>
      waitUntil(what, () => events.slice(from).find(match), {
        timeoutMs: 15_000,
        detail: () => `events so far: ${JSON.stringify(events)}`,
      }),
    close: () => abort.abort(),
  };
}
