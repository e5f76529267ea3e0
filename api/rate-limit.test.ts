/**
 * Rate limits: the authentication routes allow RATE_LIMIT_AUTH_MAX calls per window and
 * client, the rest of the API RATE_LIMIT_MAX; a refused call is a 429 with the envelope
 * (and the CORS grant, so a browser client can read it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../identity/test-support.ts';
import { isUnlimited } from './auth/rate-limit.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ rateLimit: { windowMs: 60_000, max: 6, authMax: 3 } });
});
afterAll(async () => {
  await h.close();
});

describe('rate limits', () => {
  it('exempts exactly the replay progress poll among API routes', () => {
    expect(isUnlimited('GET', '/api/admin/projections/history/replay')).toBe(true);
    expect(isUnlimited('GET', '/api/admin/projections/money_requests/replay?x=1')).toBe(true);
    expect(isUnlimited('POST', '/api/admin/projections/history/replay')).toBe(false);
    expect(isUnlimited('GET', '/api/admin/projections/history/replay/../../users/get-all-users')).toBe(false);
    expect(isUnlimited('GET', '/api/admin/projections')).toBe(false);
    expect(isUnlimited('GET', '/api/users/get-all-users')).toBe(false);
    expect(isUnlimited('GET', '/api/health')).toBe(true);
    expect(isUnlimited('GET', '/dashboard')).toBe(true);
  });

  it('an authentication route answers 429 with the envelope after its limit', async () => {
    const statuses: number[] = [];
    let last;
    for (let attempt = 0; attempt < 4; attempt++) {
      last = await h.call({ method: 'POST', url: '/api/users/login', headers: { origin: 'http://client.test:4173' }, payload: { email: 'nobody@example.com', password: 'wrong-password' } });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect(last?.json()).toEqual({ success: false, message: 'Too many requests. Please try again later.', code: 'rate_limited' });
    expect(last?.headers['access-control-allow-origin']).toBe('http://client.test:4173');
    expect(last?.headers['retry-after']).toBeDefined();
  });

  it('each authentication route counts on its own; other API routes have the general limit', async () => {
    expect((await h.call({ method: 'POST', url: '/api/users/send-pin-reset-otp', payload: { email: 'x@example.com' } })).statusCode).toBe(200);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7; attempt++) statuses.push((await h.call({ method: 'GET', url: '/api/config' })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
    // The health probe is not limited.
    expect((await h.call({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    // Nor is the replay progress poll (still admin-only: the limiter only lets it through to auth);
    // other admin routes and a POST to the same URL keep the limit.
    expect((await h.call({ method: 'GET', url: '/api/admin/projections/history/replay' })).statusCode).not.toBe(429);
    expect((await h.call({ method: 'GET', url: '/api/admin/projections' })).statusCode).toBe(429);
    expect((await h.call({ method: 'POST', url: '/api/admin/projections/history/replay', payload: {} })).statusCode).toBe(429);
  });

  it('account lookups (verify-account) have their own limit: three times the authentication one', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 10; attempt++) {
      statuses.push((await h.call({ method: 'POST', url: '/api/transactions/verify-account', payload: { receiver: `someone-${attempt}` } })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 401, 429]);
  });
});
