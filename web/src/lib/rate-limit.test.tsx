/**
 * The client's back-off from the rate limit: Retry-After read as seconds or a date; a read
 * refused with 429 `rate_limited` holds every later read until the limit passes (none is sent
 * meanwhile; an abort ends the wait); the retry policy retries 429 and 503 after their
 * Retry-After and never another 4xx.
 */
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../test/harness.tsx';
import { ApiError, apiData, NetworkError } from './api-client.ts';
import { MAX_WAITING_RETRIES, retryDelay, shouldRetry } from './query-client.ts';
import { parseRetryAfter, rateLimitedUntil } from './rate-limit.ts';

const REFUSAL = { success: false, message: 'Too many requests. Please try again later.', code: 'rate_limited' };

describe('Retry-After', () => {
  it('reads delta-seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2026-11-27T10:00:00Z');
    expect(parseRetryAfter('42', now)).toBe(42);
    expect(parseRetryAfter('Fri, 27 Nov 2026 10:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Fri, 27 Nov 2026 09:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});

describe('reads while rate-limited', () => {
  it('a refused read carries its Retry-After, and the next read waits instead of calling', async () => {
    const calls = fakeApi({
      '/api/limited': () => ({ status: 429, headers: { 'retry-after': '600' }, body: REFUSAL }),
      '/api/other': () => ({ body: { success: true, message: 'ok', data: 1 } }),
    });
    const refused = await apiData('/api/limited', { fallbackMessage: 'x' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(429);
    expect((refused as ApiError).retryAfter).toBe(600);
    expect(rateLimitedUntil()).toBeGreaterThan(Date.now() + 590_000);

    const abort = new AbortController();
    const held = apiData('/api/other', { fallbackMessage: 'x', signal: abort.signal });
    abort.abort();
    await expect(held).rejects.toThrow();
    expect(calls.map((call) => call.path)).toEqual(['/api/limited']);
  });

  it('a 429 that is not the rate limit (a PIN lockout) holds nothing back', async () => {
    const calls = fakeApi({
      '/api/locked': () => ({ status: 429, body: { success: false, message: 'Locked', code: 'PIN_LOCKED' } }),
      '/api/other': () => ({ body: { success: true, message: 'ok', data: 1 } }),
    });
    await expect(apiData('/api/locked', { fallbackMessage: 'x' })).rejects.toThrow('Locked');
    await expect(apiData('/api/other', { fallbackMessage: 'x' })).resolves.toBe(1);
    expect(calls).toHaveLength(2);
  });
});

describe('retry policy', () => {
  const limited = new ApiError('Too many', 'rate_limited', 429, 12);

  it('retries a 429 or 503 after its Retry-After, a bounded number of times', () => {
    expect(shouldRetry(0, limited)).toBe(true);
    expect(shouldRetry(MAX_WAITING_RETRIES, limited)).toBe(false);
    expect(retryDelay(0, limited)).toBeGreaterThanOrEqual(12_000);
    expect(retryDelay(0, new ApiError('Unavailable', 'database_unavailable', 503, 2))).toBeGreaterThanOrEqual(2_000);
  });

  it('never retries another refusal; retries a lost connection or a 500 once', () => {
    for (const status of [400, 401, 403, 404, 409])
      expect(shouldRetry(0, new ApiError('No', undefined, status))).toBe(false);
    expect(shouldRetry(0, new ApiError('Oops', undefined, 500))).toBe(true);
    expect(shouldRetry(1, new ApiError('Oops', undefined, 500))).toBe(false);
    expect(shouldRetry(0, new NetworkError('offline'))).toBe(true);
  });
});
