/**
 * One open text/event-stream response: writes events and heartbeat comments on the raw
 * socket, and ends it. A client that stops reading is cut off once its unread backlog passes
 * MAX_BACKLOG_BYTES, so a stalled tab never holds the process's memory. Nothing is written
 * once the token the stream was opened with has expired: the first write due after that ends
 * the stream instead (the hub's heartbeat ends it too, whether or not anything is due).
 */
import type { ServerResponse } from 'node:http';
import type { LiveEventName } from '../../contracts/live.ts';
import { formatCheckpoint, type Checkpoint } from '../../projections/index.ts';

const MAX_BACKLOG_BYTES = 1024 * 1024;

export interface LiveStream {
  readonly userId: string;
  readonly isAdmin: boolean;
  /** The session version the stream was opened with (a sign-out or suspension bumps it). */
  readonly sessionVersion: number;
  /** When the token the stream was opened with expires (its `exp`, epoch milliseconds). */
  readonly expiresAt: number;
  /** The last checkpoint this stream has been brought up to; undefined until it joins. */
  cursor: Checkpoint | undefined;
  /**
   * Where the client asked to resume (`Last-Event-ID`), if anywhere; `reset` when it named a
   * position that is no checkpoint (api/routes/events.ts says why): it is sent `reset`.
   */
  readonly resumeFrom: Checkpoint | 'reset' | undefined;
  send(event: LiveEventName, data: unknown, id?: Checkpoint): void;
  comment(text: string): void;
  end(): void;
  /** True once the client is gone (the socket closed or was destroyed) or the stream ended. */
  gone(): boolean;
  /** True from the token's expiry on. */
  expired(now?: number): boolean;
}

export function createLiveStream(
  raw: ServerResponse,
  user: { userId: string; isAdmin: boolean; sessionVersion: number; expiresAt: number },
  resumeFrom: Checkpoint | 'reset' | undefined,
): LiveStream {
  const gone = (): boolean => raw.writableEnded || raw.destroyed || raw.closed;
  const expired = (now = Date.now()): boolean => now >= user.expiresAt;
  const write = (chunk: string): void => {
    if (gone()) return;
    if (expired()) {
      raw.end();
      return;
    }
    raw.write(chunk);
    if (raw.writableLength > MAX_BACKLOG_BYTES) raw.destroy();
  };
  return {
    ...user,
    cursor: undefined,
    resumeFrom,
    gone,
    expired,
    send(event, data, id) {
      const idLine = id ? `id: ${formatCheckpoint(id)}\n` : '';
      write(`${idLine}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    comment(text) {
      write(`: ${text}\n\n`);
    },
    end() {
      if (!gone()) raw.end();
    },
  };
}
