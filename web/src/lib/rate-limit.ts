/**
 * The client's back-off from the server's rate limit: when a read is refused with 429
 * `rate_limited`, the time its Retry-After names is kept here. Reads wait until then instead
 * of spending more calls (api-client.ts), retries are scheduled for then (query-client.ts),
 * and one notice counts down to it (RateLimitNotice). Nothing here signs anyone out.
 */

type Listener = () => void;

let limitedUntil = 0;
const listeners = new Set<Listener>();

/** Used when a 429 names no Retry-After: long enough not to hammer, short enough to recover. */
export const DEFAULT_RETRY_AFTER_SECONDS = 30;

/** Epoch milliseconds until which reads hold back; 0 when not limited. */
export function rateLimitedUntil(): number {
  return limitedUntil > Date.now() ? limitedUntil : 0;
}

/** The last noted deadline as stored (maybe past): a stable snapshot for useSyncExternalStore. */
export function rateLimitDeadline(): number {
  return limitedUntil;
}

export function noteRateLimited(retryAfterSeconds: number | undefined, now: number = Date.now()): void {
  const until = now + (retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS) * 1000;
  if (until <= limitedUntil) return;
  limitedUntil = until;
  for (const listener of listeners) listener();
}

export function subscribeRateLimit(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Resolves once the noted limit has passed (at once when none); rejects if `signal` aborts first. */
export function waitOutRateLimit(signal?: AbortSignal): Promise<void> {
  const wait = rateLimitedUntil() - Date.now();
  if (wait <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, wait);
    function onAbort(): void {
      clearTimeout(timer);
      reject(signal?.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError'));
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Seconds from a Retry-After header: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** For tests: forget any noted limit. */
export function resetRateLimit(): void {
  limitedUntil = 0;
  for (const listener of listeners) listener();
}
