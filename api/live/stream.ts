/**
 * One open text/event-stream response: writes events and heartbeat comments on the raw
 * socket, and ends it. A client that stops reading is cut off once its unread backlog passes
 * MAX_BACKLOG_BYTES, so a stalled tab never holds the process's memory.
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
  /** The last checkpoint this stream has been brought up to; undefined until it joins. */
  cursor: Checkpoint | undefined;
  /** Where the client asked to resume (`Last-Event-ID`), if anywhere. */
  readonly resumeFrom: Checkpoint | undefined;
  send(event: LiveEventName, data: unknown, id?: Checkpoint): void;
  comment(text: string): void;
  end(): void;
}

export function createLiveStream(
  raw: ServerResponse,
  user: { userId: string; isAdmin: boolean; sessionVersion: number },
  resumeFrom: Checkpoint | undefined,
): LiveStream {
  const write = (chunk: string): void => {
    if (raw.writableEnded || raw.destroyed) return;
    raw.write(chunk);
    if (raw.writableLength > MAX_BACKLOG_BYTES) raw.destroy();
  };
  return {
    ...user,
    cursor: undefined,
    resumeFrom,
    send(event, data, id) {
      const idLine = id ? `id: ${formatCheckpoint(id)}\n` : '';
      write(`${idLine}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    comment(text) {
      write(`: ${text}\n\n`);
    },
    end() {
      if (!raw.writableEnded) raw.end();
    },
  };
}
