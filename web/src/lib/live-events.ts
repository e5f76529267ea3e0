/**
 * The tab's live updates stream (GET /api/users/events): opened with fetch and the
 * Authorization header (a token never goes in a URL, so no EventSource), parsed with
 * eventsource-parser, each event checked against its contract schema. A dropped stream is
 * re-opened with backoff and `Last-Event-ID`, so nothing is missed; a 401 or 403 (the
 * session is over or the account suspended) stops it for good, as does stop() at sign-out.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import {
  LIVE_EVENTS_PATH,
  isLiveEventName,
  liveEventSchemas,
  type LiveEventData,
  type LiveEventName,
} from '../../../contracts/live.ts';

export type LiveEvent = { [Name in LiveEventName]: { name: Name; data: LiveEventData<Name> } }[LiveEventName];

export interface LiveOptions {
  token: string;
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
  const open = async (): Promise<void> => {
    controller = new AbortController();
    const headers: Record<string, string> = { accept: 'text/event-stream', authorization: `Bearer ${options.token}` };
    if (lastEventId) headers['last-event-id'] = lastEventId;
    try {
      const response = await fetch(LIVE_EVENTS_PATH, { headers, signal: controller.signal, cache: 'no-store' });
      if (response.status === 401 || response.status === 403) {
        stopped = true;
        options.onRefused();
        return;
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
