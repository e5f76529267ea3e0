/**
 * The tab's live updates stream (GET /api/users/events): opened with fetch and the
 * Authorization header (a token never goes in a URL, so no EventSource), parsed with
 * eventsource-parser, each event checked against its contract schema. A dropped stream is
 * re-opened with backoff and `Last-Event-ID`, so nothing is missed, and with the token the app
 * holds at that moment (the server ends a stream when the token it was opened with expires);
 * a 401 or 403 (the session is over or the account suspended), or no token left, stops it for
 * good, as does stop() at sign-out. A 429 (too many streams of this user, or the request
 * budget spent) waits for its Retry-After: each attempt costs a request of the user's budget.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import {
  LIVE_EVENTS_PATH,
  isLiveEventName,
  liveEventSchemas,
  type LiveEventData,
  type LiveEventName,
} from '../../../contracts/live.ts';
import { DEFAULT_RETRY_AFTER_SECONDS, noteRateLimited, parseRetryAfter } from './rate-limit.ts';

export type LiveEvent = { [Name in LiveEventName]: { name: Name; data: LiveEventData<Name> } }[LiveEventName];

export interface LiveOptions {
  /** The session token the app holds now (read at every open); null: signed out. */
  token(): string | null;
  onEvent(event: LiveEvent): void;
  /** The stream is open again after a drop: what it could not resume must be refetched. */
  onReconnect(): void;
  /** Refused with 401/403: the session is over; the stream will not retry. */
  onRefused(): void;
}

export interface LiveConnection {
  stop(): void;
}

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;
/**
 * The longest a 429's Retry-After is waited: the rate limit's window (15 minutes), the longest
 * any refusal of ours lasts. A larger value (a misconfigured proxy) would stop live updates.
 */
const MAX_RETRY_AFTER_SECONDS = 15 * 60;

export function connectLiveEvents(options: LiveOptions): LiveConnection {
  let stopped = false;
  let lastEventId: string | undefined;
  let failures = 0;
  let opens = 0;
  let controller: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const retryLater = (): void => {
    if (stopped) return;
    // Jittered, so the tabs of a restarted server do not all come back at once.
    const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** failures) * (0.5 + Math.random() / 2);
    failures += 1;
    timer = setTimeout(() => void open(), delay);
  };
  /** After a 429: its Retry-After (bounded), plus up to a fifth more so the tabs spread out. */
  const retryAfter = (seconds: number | undefined): void => {
    if (stopped) return;
    const wait = Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, seconds ?? DEFAULT_RETRY_AFTER_SECONDS)) * 1000;
    timer = setTimeout(() => void open(), wait * (1 + Math.random() / 5));
  };
  const refuse = (): void => {
    stopped = true;
    options.onRefused();
  };
  const open = async (): Promise<void> => {
    const token = options.token();
    if (token === null) return refuse();
    controller = new AbortController();
    const headers: Record<string, string> = { accept: 'text/event-stream', authorization: `Bearer ${token}` };
    if (lastEventId) headers['last-event-id'] = lastEventId;
    try {
      const response = await fetch(LIVE_EVENTS_PATH, { headers, signal: controller.signal, cache: 'no-store' });
      if (response.status === 401 || response.status === 403) return refuse();
      if (response.status === 429) {
        const seconds = parseRetryAfter(response.headers.get('retry-after'));
        // The account's request budget is spent: every read holds back too (lib/rate-limit.ts).
        // `too_many_streams` is this stream's own cap: the other reads go on.
        if ((await refusalCode(response)) === 'rate_limited') noteRateLimited(seconds);
        return retryAfter(seconds);
      }
      if (!response.ok || !response.body) throw new Error(`live updates: HTTP ${response.status}`);
      failures = 0;
      opens += 1;
      if (opens > 1 && !lastEventId) options.onReconnect();
      await readStream(response.body, (message) => {
        if (message.id) lastEventId = message.id;
        const event = parseLiveEvent(message);
        if (event) options.onEvent(event);
      });
    } catch {
      // Aborted by stop(), or the connection dropped: retried below unless stopped.
    }
    retryLater();
  };

  void open();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      controller?.abort();
    },
  };
}

async function refusalCode(response: Response): Promise<unknown> {
  try {
    return ((await response.json()) as { code?: unknown }).code;
  } catch {
    return undefined;
  }
}

async function readStream(body: ReadableStream<Uint8Array>, onEvent: (message: EventSourceMessage) => void) {
  const parser = createParser({ onEvent });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    parser.feed(decoder.decode(value, { stream: true }));
  }
}

/** The typed event of a message, or undefined for one this client does not know (or malformed). */
export function parseLiveEvent(message: EventSourceMessage): LiveEvent | undefined {
  const name = message.event;
  if (!name || !isLiveEventName(name)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(message.data);
  } catch {
    return undefined;
  }
  const parsed = liveEventSchemas[name].safeParse(json);
  return parsed.success ? ({ name, data: parsed.data } as LiveEvent) : undefined;
}
