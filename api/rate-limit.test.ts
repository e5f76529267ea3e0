/**
 * Rate limits: the authentication routes allow RATE_LIMIT_AUTH_MAX calls per window and
 * client, the rest of the API RATE_LIMIT_MAX; a refused call is a 429 with the envelope
 * (and the CORS grant, so a browser client can read it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../identity/test-support.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ rateLimit: { windowMs: 60_000, max: 6, authMax: 3 } });
});
afterAll(async () => {
  await h.close();
});

describe('rate limits', () => {
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
  });
});
