/**
 * The one polling helper of the tests: wait for a condition of the system (a checkpoint, a
 * row, a log line, a port answering) with a bound, never for a fixed time. On timeout it says
 * which condition it waited for, for how long, what it last saw, and why it last failed.
 *
 * Not `vi.waitFor`: the process helpers here also run outside a vitest worker (the
 * reliability drills, the e2e global setup), and a condition that throws while the system
 * starts (a refused connection) needs retrying, not failing.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitOptions {
  /** How long the condition may take before the wait fails. */
  timeoutMs?: number;
  /** The pause between two checks. */
  intervalMs?: number;
  /** Also retried when the condition throws (a server not listening yet); else the error ends the wait. */
  retryErrors?: boolean;
  /** Appended to the timeout message: a process's output, the last state seen. */
  detail?: () => string | Promise<string>;
}

/** What a wait throws when its condition did not hold in time (an error of the condition is thrown as is). */
export class WaitTimeout extends Error {
  override name = 'WaitTimeout';
}

const DEFAULT_TIMEOUT_MS = 20_000;
const DEFAULT_INTERVAL_MS = 50;

type Pending = false | null | undefined;

/**
 * Checks `condition` until it returns a value other than false, null or undefined, and returns
 * that value. `what` completes "timed out after N ms waiting for ...".
 */
export async function waitUntil<T>(
  what: string,
  condition: () => T | Pending | Promise<T | Pending>,
  options: WaitOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await condition();
      if (value !== false && value !== null && value !== undefined) return value;
      lastError = undefined;
    } catch (error) {
      if (!options.retryErrors) throw error;
      lastError = error;
    }
    if (Date.now() > deadline) throw await timeoutError(what, timeoutMs, lastError, options.detail);
    await sleep(intervalMs);
  }
}

async function timeoutError(
  what: string,
  timeoutMs: number,
  lastError: unknown,
  detail: WaitOptions['detail'],
): Promise<WaitTimeout> {
  const parts = [`timed out after ${timeoutMs} ms waiting for ${what}`];
  if (lastError !== undefined)
    parts.push(`last error: ${lastError instanceof Error ? lastError.message : String(lastError)}`);
  if (detail) parts.push(await detail());
  return new WaitTimeout(parts.join('\n'), { cause: lastError });
}

/**
 * Reads until `done` holds for what was read, and returns that reading; the timeout message
 * shows the last reading. For conditions whose value may itself be falsy (a count of 0).
 */
export async function readUntil<T>(
  what: string,
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  options: WaitOptions = {},
): Promise<T> {
  let last: { value: T } | undefined;
  const reached = await waitUntil(
    what,
    async () => {
      last = { value: await read() };
      return done(last.value) ? last : false;
    },
    {
      ...options,
      detail: async () =>
        [last ? `last read: ${describe(last.value)}` : 'nothing read', options.detail ? await options.detail() : '']
          .filter(Boolean)
          .join('\n'),
    },
  );
  return reached.value;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'bigint' ? inner.toString() : inner));
  } catch {
    return String(value);
  }
}
