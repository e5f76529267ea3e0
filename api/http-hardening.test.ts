/**
 * Security headers on every kind of reply: the web app's pages (index, the SPA
 * fallback for client routes such as the transfer and pay pages, hashed assets), API replies
 * (success, 401, 404, 429), and the API docs (Swagger UI). HSTS only when PUBLIC_URL is https.
 * And the JSON body parser: an empty body is {} (the spec's session check), a prototype-
 * poisoning body is refused with 400 in the envelope.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredUser, startHarness, startSiblingApp, type Harness } from '../test/app-harness.ts';

let h: Harness;
let distDir: string;

beforeAll(async () => {
  // A stand-in for web/dist: what registerWebApp serves is the point here, not the bundle.
  distDir = mkdtempSync(join(tmpdir(), 'wallet-dist-'));
  mkdirSync(join(distDir, 'assets'));
  writeFileSync(
    join(distDir, 'index.html'),
    '<!doctype html><title>Wallet</title><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script>',
  );
  writeFileSync(join(distDir, 'assets', 'index-abc123.js'), 'console.log("wallet")');
  h = await startHarness({ webDistDir: distDir, rateLimit: { windowMs: 60_000, max: 1_000, authMax: 5 } });
});
afterAll(async () => {
  await h.close();
  rmSync(distDir, { recursive: true, force: true });
});

function directives(response: LightMyRequestResponse): Map<string, string> {
  const policy = String(response.headers['content-security-policy'] ?? '');
  return new Map(
    policy
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [name = '', ...values] = part.split(/\s+/);
        return [name, values.join(' ')] as const;
      }),
  );
}

function expectSecurityHeaders(response: LightMyRequestResponse, what: string): void {
  expect(response.headers['x-content-type-options'], what).toBe('nosniff');
  expect(response.headers['x-frame-options'], what).toBe('DENY');
  expect(response.headers['referrer-policy'], what).toBe('no-referrer');
  expect(response.headers['permissions-policy'], what).toBe('camera=(self), microphone=(), geolocation=(), usb=()');
  expect(response.headers['strict-transport-security'], `${what}: no HSTS over http`).toBeUndefined();
  const csp = directives(response);
  expect(csp.get('default-src'), what).toBe("'self'");
  expect(csp.get('frame-ancestors'), what).toBe("'none'");
  expect(csp.get('object-src'), what).toBe("'none'");
  expect(csp.get('base-uri'), what).toBe("'self'");
  expect(csp.get('script-src'), what).toBe("'self' https://js.stripe.com https://*.js.stripe.com");
  expect(csp.get('frame-src'), what).toBe('https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com');
  expect(csp.get('connect-src'), what).toBe("'self' https://api.stripe.com");
  expect(csp.get('img-src'), what).toBe("'self' data: blob:");
  expect(csp.has('upgrade-insecure-requests'), what).toBe(false);
}

describe('security headers', () => {
  it('on the web app: index, client routes (transfer, pay, PIN pages) through the fallback, and assets', async () => {
    for (const url of [
      '/',
      '/dashboard',
      '/user/some-account',
      '/transactions',
      '/login?token=x&success=true',
      '/index.html',
      '/assets/index-abc123.js',
    ]) {
      const response = await h.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expectSecurityHeaders(response, url);
    }
  });

  it('on API replies: success, refusals, unknown routes (also through the fallback) and 429s', async () => {
    const user = await registeredUser(h, 'headers@example.com');
    const replies: [string, LightMyRequestResponse][] = [
      ['config', await h.app.inject({ method: 'GET', url: '/api/config' })],
      [
        'signed in',
        await h.app.inject({
          method: 'POST',
          url: '/api/users/get-user-info',
          headers: { authorization: `Bearer ${user.token}` },
        }),
      ],
      ['401', await h.app.inject({ method: 'POST', url: '/api/users/get-user-info' })],
      ['404 POST', await h.app.inject({ method: 'POST', url: '/api/nothing' })],
      ['404 GET via fallback', await h.app.inject({ method: 'GET', url: '/api/nothing' })],
      ['404 GET encoded', await h.app.inject({ method: 'GET', url: '/%61pi/nothing' })],
      ['health', await h.app.inject({ method: 'GET', url: '/api/health' })],
    ];
    let limited: LightMyRequestResponse | undefined;
    for (let attempt = 0; attempt < 6; attempt++)
      limited = await h.app.inject({
        method: 'POST',
        url: '/api/users/login',
        remoteAddress: '192.0.2.200',
        payload: { email: 'x@example.com', password: 'wrong-password' },
      });
    replies.push(['429', limited as LightMyRequestResponse]);
    expect(replies.map(([what, response]) => `${what} ${response.statusCode}`)).toEqual([
      'config 200',
      'signed in 200',
      '401 401',
      '404 POST 404',
      '404 GET via fallback 404',
      '404 GET encoded 404',
      'health 200',
      '429 429',
    ]);
    for (const [what, response] of replies) {
      expectSecurityHeaders(response, what);
      if (what.startsWith('404')) expect(response.json()).toMatchObject({ success: false, code: 'not_found' });
    }
  });

  it('on the API docs (Swagger UI loads only its own scripts and styles under the same policy)', async () => {
    const page = await h.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expectSecurityHeaders(page, 'docs page');
    for (const url of [
      '/api/docs/static/swagger-ui-bundle.js',
      '/api/docs/static/swagger-initializer.js',
      '/api/docs/json',
    ]) {
      const response = await h.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expectSecurityHeaders(response, url);
    }
  });

  it('HSTS and upgrade-insecure-requests when PUBLIC_URL is https', async () => {
    const https: FastifyInstance = await startSiblingApp(h, { publicUrl: 'https://wallet.example.in' });
    try {
      for (const url of ['/dashboard', '/api/config']) {
        const response = await https.inject({ method: 'GET', url });
        expect(response.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
        expect(directives(response).has('upgrade-insecure-requests'), url).toBe(true);
        expect(directives(response).get('frame-ancestors')).toBe("'none'");
      }
    } finally {
      await https.close();
    }
  });
});

describe('the web app after a deploy', () => {
  it("answers 404 in the envelope, not the app's HTML, for a file the build does not have", async () => {
    for (const url of ['/assets/index-old999.js', '/assets/Page-gone.css', '/icons/missing.png', '/old-sw.js']) {
      const response = await h.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/^application\/json/);
      expect(response.json(), url).toMatchObject({ success: false });
    }
    // Client routes still get index.html, also with a dot-free id in them.
    const route = await h.app.inject({ method: 'GET', url: '/user/0f8e2a34-8a9b-4c1d-9e3f-5a6b7c8d9e0f' });
    expect(route.statusCode).toBe(200);
    expect(route.headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('JSON bodies', () => {
  it("an empty body with a JSON content type is {} (the spec client's session check)", async () => {
    const user = await registeredUser(h, 'empty-body@example.com');
    const response = await h.app.inject({
      method: 'POST',
      url: '/api/users/get-user-info',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ success: true });
  });

  it.each([
    ['__proto__', '{"email":"a@example.com","password":"long-password-1","__proto__":{"isAdmin":true}}'],
    ['nested __proto__', '{"bankDetails":{"__proto__":{"polluted":true}}}'],
    ['constructor.prototype', '{"constructor":{"prototype":{"isAdmin":true}}}'],
  ])('regression: a %s body is refused with 400 in the envelope (prototype poisoning)', async (name, payload) => {
    // Each case from its own address: sign-in allows five calls per client here.
    const response = await h.app.inject({
      method: 'POST',
      url: '/api/users/login',
      remoteAddress: `192.0.2.${210 + name.length}`,
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message: 'Invalid request body', code: 'validation_failed' });
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('malformed JSON is 400 in the envelope', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/api/users/login',
      remoteAddress: '192.0.2.202',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'validation_failed' });
  });
});
