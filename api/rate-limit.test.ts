/**
 * Rate limits: the authentication routes allow RATE_LIMIT_AUTH_MAX calls per window and
 * client, the rest of the API RATE_LIMIT_MAX; a refused call is a 429 with the envelope (and
 * the CORS grant, so a browser client can read it).
 *
 * Regression: the limiter decided on the raw URL, so `POST /%61pi/users/login` (or
 * any spelling the router decodes to a limited route, or an absolute-form request target)
 * reached the sign-in handler with no limit. Every spelling is tried here, through inject and
 * as raw request lines over a socket (inject normalises dot segments; a real client need not).
 * Also: counting per account on signed-in routes (reads and commands in budgets of their own),
 * per IP through trusted proxies, in Postgres shared by two app instances, and a 503 (never
 * unlimited, never a 500) when the store is down.
 */
import { createHmac } from 'node:crypto';
import { connect, type AddressInfo } from 'node:net';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityDb } from '../identity/users.ts';
import { openDatabase } from '../platform/database.ts';
import { startHarness, startSiblingApp, TEST_SECRET, VALID_REGISTRATION, type Harness } from '../test/app-harness.ts';
import { isExempt } from './auth/rate-limit.ts';
import {
  countRequest,
  countRequests,
  countSignedInRequests,
  createPostgresRateLimitStore,
  sweepExpired,
  SWEEP_BATCH_ROWS,
} from './auth/rate-limit-store.ts';

const LIMITS = { windowMs: 60_000, max: 6, authMax: 3, readMax: 8 };
const LOGIN = { email: 'nobody@example.com', password: 'wrong-password' };

let h: Harness;
/** Another app on the same database, behind one trusted proxy on loopback, listening on a real port. */
let proxied: FastifyInstance;
let proxiedPort: number;

beforeAll(async () => {
  h = await startHarness({ rateLimit: LIMITS });
  proxied = await startSiblingApp(h, { trustedProxies: { hops: 1, addresses: ['loopback'] } });
  await proxied.listen({ port: 0, host: '127.0.0.1' });
  proxiedPort = (proxied.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await proxied.close();
  await h.close();
});

let clients = 0;
/** A client address no other test has used: each test starts with a fresh budget. */
function freshIp(): string {
  clients += 1;
  return `10.13.${Math.floor(clients / 250)}.${(clients % 250) + 1}`;
}

function loginFrom(ip: string, url = '/api/users/login', extra: Partial<InjectOptions> = {}) {
  return h.call({ method: 'POST', url, remoteAddress: ip, payload: LOGIN, ...extra });
}

/** Signs in from `ip`; the session token. */
async function signInFrom(email: string, ip: string): Promise<string> {
  const reply = await h.call({
    method: 'POST',
    url: '/api/users/login',
    remoteAddress: ip,
    payload: { email, password: VALID_REGISTRATION.password },
  });
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json().data as string;
}

/**
 * A registered, activated and signed-in user, each authentication call from an address of its
 * own (the limits here are small); activated in the database, so no admin budget is spent.
 */
async function activeUser(email: string): Promise<{ id: string; email: string; token: string }> {
  const registered = await h.call({
    method: 'POST',
    url: '/api/users/register',
    remoteAddress: freshIp(),
    payload: { ...VALID_REGISTRATION, email },
  });
  expect(registered.statusCode, registered.body).toBe(201);
  const { id } = await identityDb(h.database.db)
    .updateTable('identity.users')
    .set({ is_verified: true })
    .where('email', '=', email)
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, email, token: await signInFrom(email, freshIp()) };
}

function qrFrom(ip: string, token: string) {
  return h.call({
    method: 'GET',
    url: '/api/users/generate-qr',
    remoteAddress: ip,
    headers: { authorization: `Bearer ${token}` },
  });
}

async function statusesOf(count: number, send: () => Promise<{ statusCode: number }>): Promise<number[]> {
  const statuses: number[] = [];
  for (let attempt = 0; attempt < count; attempt++) statuses.push((await send()).statusCode);
  return statuses;
}

describe('rate limits', () => {
  it('exempts by matched route: non-API routes, the health probe, the webhook and the replay poll', () => {
    expect(isExempt('GET', '/api/admin/projections/:name/replay')).toBe(true);
    expect(isExempt('HEAD', '/api/admin/projections/:name/replay')).toBe(true);
    expect(isExempt('POST', '/api/admin/projections/:name/replay')).toBe(false);
    expect(isExempt('GET', '/api/admin/projections')).toBe(false);
    expect(isExempt('GET', '/api/users/get-all-users')).toBe(false);
    expect(isExempt('GET', '/api/health')).toBe(true);
    expect(isExempt('POST', '/api/payments/card/webhook')).toBe(true);
    expect(isExempt('GET', '/metrics')).toBe(true);
    expect(isExempt('GET', '/assets/index.js')).toBe(true);
    // The web app's fallback: a client route is exempt, an API path it caught is not.
    expect(isExempt('GET', '/*', 'dashboard')).toBe(true);
    expect(isExempt('GET', '/*', 'api/unknown')).toBe(false);
    expect(isExempt('GET', '/*', 'auth/x')).toBe(false);
    // No route matched: limited.
    expect(isExempt('GET', undefined)).toBe(false);
  });

  it('an authentication route answers 429 with the envelope after its limit', async () => {
    const statuses: number[] = [];
    let last;
    for (let attempt = 0; attempt < 4; attempt++) {
      last = await h.call({
        method: 'POST',
        url: '/api/users/login',
        headers: { origin: 'http://client.test:4173' },
        payload: LOGIN,
      });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect(last?.json()).toEqual({
      success: false,
      message: 'Too many requests. Please try again later.',
      code: 'rate_limited',
    });
    expect(last?.headers['access-control-allow-origin']).toBe('http://client.test:4173');
    expect(last?.headers['retry-after']).toBeDefined();
    expect(last?.headers['access-control-expose-headers']).toBe('retry-after');
  });

  it('each authentication route counts on its own; other API routes have the general limit', async () => {
    expect(
      (await h.call({ method: 'POST', url: '/api/users/send-pin-reset-otp', payload: { email: 'x@example.com' } }))
        .statusCode,
    ).toBe(200);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7; attempt++)
      statuses.push((await h.call({ method: 'GET', url: '/api/config' })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
    // The health probe is not limited.
    expect((await h.call({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    // Nor is the replay progress poll (still admin-only: the limiter only lets it through to auth);
    // other admin routes and a POST to the same URL keep the limit.
    expect((await h.call({ method: 'GET', url: '/api/admin/projections/history/replay' })).statusCode).not.toBe(429);
    expect((await h.call({ method: 'GET', url: '/api/admin/projections' })).statusCode).toBe(429);
    expect(
      (await h.call({ method: 'POST', url: '/api/admin/projections/history/replay', payload: {} })).statusCode,
    ).toBe(429);
  });

  it('account lookups (verify-account) have their own limit: three times the authentication one', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 10; attempt++) {
      statuses.push(
        (
          await h.call({
            method: 'POST',
            url: '/api/transactions/verify-account',
            payload: { receiver: `someone-${attempt}` },
          })
        ).statusCode,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 401, 429]);
  });
});

describe('regression: rate limits bypassed by spelling the path differently', () => {
  // Every one of these runs the sign-in handler (checked: the first answer is its 401).
  const signInSpellings = [
    '/%61pi/users/login',
    '/api/users/logi%6E',
    '/api/users/%6C%6F%67%69%6E',
    '/%61%70%69/%75%73%65%72%73/%6c%6f%67%69%6e',
    '/api/users/login?x=1',
    '/api/users/login?url=/api/health',
    '/api/users/./login',
    '/api/users/x/../login',
    '/api/users/login#fragment',
    'http://evil.test/api/users/login',
  ];
  // None of these reaches a handler: they count under the API-wide limit instead.
  const unroutedSpellings = [
    '//api/users/login',
    '/api//users/login',
    '/api/users/login/',
    '/API/users/login',
    '/api/users/LOGIN',
    '/api/users/login;jsessionid=1',
    '/api/users%2Flogin',
    '/api/users/login%2F',
    '/%2561pi/users/login',
    '/api/users/login%00',
    '/api/users/login%20',
  ];

  it.each(signInSpellings)('%s runs sign-in and shares its limit (inject)', async (spelling) => {
    const ip = freshIp();
    expect(await statusesOf(3, () => loginFrom(ip, spelling))).toEqual([401, 401, 401]);
    expect((await loginFrom(ip)).statusCode).toBe(429);
    expect((await loginFrom(ip, spelling)).statusCode).toBe(429);
  });

  it.each(unroutedSpellings)('%s matches no route and counts under the API limit (inject)', async (spelling) => {
    const ip = freshIp();
    const replies = [];
    for (let attempt = 0; attempt < 7; attempt++) replies.push(await loginFrom(ip, spelling));
    expect(replies.map((reply) => reply.statusCode)).toEqual([404, 404, 404, 404, 404, 404, 429]);
    expect(replies[6]?.json()).toMatchObject({ success: false, code: 'rate_limited' });
  });

  it('an unknown API route counts under the API limit (no route is exempt for being unknown)', async () => {
    const ip = freshIp();
    expect(await statusesOf(7, () => h.call({ method: 'GET', url: '/api/no-such-route', remoteAddress: ip }))).toEqual([
      404, 404, 404, 404, 404, 404, 429,
    ]);
    // The budget is the API's: the next real API call from that client is refused too.
    expect((await h.call({ method: 'GET', url: '/api/config', remoteAddress: ip })).statusCode).toBe(429);
  });

  it('raw request lines over a socket: every spelling that reaches sign-in is limited, the rest count as the API', async () => {
    const signInIp = '198.51.100.61';
    const routed: number[] = [];
    for (const target of [
      '/api/users/login',
      'http://evil.test/api/users/login',
      '/%61pi/users/login',
      '/api/users/login#x',
    ]) {
      routed.push((await rawPost(target, signInIp)).status);
    }
    // The fourth spelling is the fourth sign-in attempt.
    expect(routed).toEqual([401, 401, 401, 429]);
    expect((await rawPost('/api/users/logi%6e', signInIp)).status).toBe(429);

    const otherIp = '198.51.100.62';
    const unrouted: number[] = [];
    for (const target of [
      '/api/users/./login',
      '/api/users/x/../login',
      '/./api/users/login',
      '/api/users/%2e/login',
      '/api/users/login/.',
      '*',
      '/api//users/login',
    ]) {
      unrouted.push((await rawPost(target, otherIp)).status);
    }
    expect(unrouted).toEqual([404, 404, 404, 404, 404, 404, 429]);
  });
});

describe('who is counted', () => {
  it('signed-in routes count per account (a live session); anonymous routes and bad tokens count per IP', async () => {
    const [ip1, ip2, ip3] = [freshIp(), freshIp(), freshIp()];
    const a = await activeUser('counted-a@example.com');
    const b = await activeUser('counted-b@example.com');
    // generate-qr is a read: the account's read budget (readMax), not the address's.
    expect(await statusesOf(9, () => qrFrom(ip1, a.token))).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429]);
    // The same account from another address: still its budget.
    expect((await qrFrom(ip2, a.token)).statusCode).toBe(429);
    // Another account behind the same address: its own budget.
    expect((await qrFrom(ip1, b.token)).statusCode).toBe(200);
    // A token with the subject but a wrong signature, or expired, counts by IP (ip3 is fresh).
    const forged = hs256({ sub: a.id, sv: 0, exp: nowSeconds() + 3_600 }, 'not-the-secret-0123456789-abcdefghijklmnop');
    const expired = hs256({ sub: a.id, sv: 0, iat: nowSeconds() - 7_200, exp: nowSeconds() - 3_600 }, TEST_SECRET);
    expect((await qrFrom(ip3, forged)).statusCode).toBe(401);
    expect((await qrFrom(ip3, expired)).statusCode).toBe(401);
    // An anonymous route counts by IP even with a valid token: a's account is spent, ip2 is not.
    expect(
      (
        await h.call({
          method: 'GET',
          url: '/api/config',
          remoteAddress: ip2,
          headers: { authorization: `Bearer ${a.token}` },
        })
      ).statusCode,
    ).toBe(200);
    // Sign-in is anonymous: a token does not move it off the IP's budget.
    const ip4 = freshIp();
    expect(
      await statusesOf(4, () =>
        loginFrom(ip4, '/api/users/login', { headers: { authorization: `Bearer ${a.token}` } }),
      ),
    ).toEqual([401, 401, 401, 429]);
    expect(
      (await loginFrom(ip4, '/api/users/login', { headers: { authorization: `Bearer ${b.token}` } })).statusCode,
    ).toBe(429);
  });

  it('regression (issue 41): reads and commands have budgets of their own, so reading never blocks a payment', async () => {
    const user = await activeUser('budgets@example.com');
    const auth = { authorization: `Bearer ${user.token}` };
    const history = () =>
      h.call({ method: 'POST', url: '/api/transactions/get-all-transactions-by-user', headers: auth, payload: {} });
    // A command the handler refuses (unknown payee) still counts: the limiter runs first.
    const command = () =>
      h.call({
        method: 'POST',
        url: '/api/requests/send-request',
        headers: auth,
        payload: { receiver: 'no-such-account', amount: 10, reference: 'lunch' },
      });
    // Reads (a POST that only reads included) spend the read budget...
    expect(await statusesOf(LIMITS.readMax + 1, history)).toEqual([...Array<number>(LIMITS.readMax).fill(200), 429]);
    expect((await qrFrom(freshIp(), user.token)).statusCode).toBe(429);
    // ...and leave the commands' budget whole: the spec's figure (max), per account.
    const commands = await statusesOf(LIMITS.max + 1, command);
    expect(commands.slice(0, LIMITS.max)).not.toContain(429);
    expect(commands[LIMITS.max]).toBe(429);
  });

  it("regression: a signed-out token counts under the caller's address, so a leaked old token cannot keep its owner at 429", async () => {
    const [attacker, owner, elsewhere] = [freshIp(), freshIp(), freshIp()];
    const user = await activeUser('stale-token@example.com');
    const old = user.token;
    const loggedOut = await h.call({
      method: 'POST',
      url: '/api/users/logout',
      remoteAddress: owner,
      headers: { authorization: `Bearer ${old}` },
    });
    expect(loggedOut.statusCode).toBe(200);
    // The old token still has a valid signature and is not expired; its session is over.
    expect(await statusesOf(7, () => qrFrom(attacker, old))).toEqual([401, 401, 401, 401, 401, 401, 429]);
    // Counted under the attacker's address: a call from there without any token is refused too...
    expect((await h.call({ method: 'GET', url: '/api/config', remoteAddress: attacker })).statusCode).toBe(429);
    // ...and the same stale token from another address has that address's budget.
    expect((await qrFrom(elsewhere, old)).statusCode).toBe(401);
    // The owner signs in again: the new token works, from anywhere, the attacker's address included.
    const fresh = await signInFrom(user.email, owner);
    expect((await qrFrom(owner, fresh)).statusCode).toBe(200);
    expect((await qrFrom(attacker, fresh)).statusCode).toBe(200);
    // A token of a suspended account counts under the address too (its session is over as well).
    const suspended = await activeUser('stale-suspended@example.com');
    await identityDb(h.database.db)
      .updateTable('identity.users')
      .set({ is_verified: false })
      .where('id', '=', suspended.id)
      .execute();
    const other = freshIp();
    expect(await statusesOf(7, () => qrFrom(other, suspended.token))).toEqual([403, 403, 403, 403, 403, 403, 429]);
    expect((await h.call({ method: 'GET', url: '/api/config', remoteAddress: other })).statusCode).toBe(429);
  });

  it("a signed-in request's user is read in the statement that counts it (one round trip, not two)", async () => {
    const user = await activeUser('one-statement@example.com');
    const statements: string[] = [];
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: h.database.pool }),
      log: (event) => {
        statements.push(event.query.sql);
      },
    });
    const app = await startSiblingApp(h, {}, { db });
    try {
      const reply = await app.inject({
        method: 'GET',
        url: '/api/users/generate-qr',
        remoteAddress: freshIp(),
        headers: { authorization: `Bearer ${user.token}` },
      });
      expect(reply.statusCode, reply.body).toBe(200);
      const counts = statements.filter((statement) => statement.includes('insert into ratelimit.counters'));
      expect(counts, counts.join('\n---\n')).toHaveLength(1);
      expect(counts[0]).toContain('"identity"."users"');
      // The guard judged the session from that row: no statement reads the user before the count.
      const before = statements.slice(0, statements.indexOf(counts[0] ?? ''));
      expect(before.filter((statement) => statement.includes('"identity"."users"'))).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('behind trusted proxies the client is the address that many hops back; entries forged further back are ignored', async () => {
    const viaProxy = (forwardedFor: string, remoteAddress = '127.0.0.1') =>
      proxied.inject({
        method: 'POST',
        url: '/api/users/login',
        remoteAddress,
        headers: { 'x-forwarded-for': forwardedFor },
        payload: LOGIN,
      });
    // The proxy appended 198.51.100.7; whatever the client wrote before it changes nothing.
    const spoofs = ['1.1.1.1, 198.51.100.7', '2.2.2.2, 198.51.100.7', '198.51.100.7', '3.3.3.3, 198.51.100.7'];
    const statuses: number[] = [];
    for (const header of spoofs) statuses.push((await viaProxy(header)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429]);
    // Another client behind the same proxy has its own budget.
    expect((await viaProxy('198.51.100.8')).statusCode).toBe(401);
    // A peer that is not a trusted proxy is the client itself, whatever header it sends.
    const direct = await statusesOf(4, async () =>
      viaProxy(`198.51.100.${10 + Math.floor(Math.random() * 200)}`, '203.0.113.50'),
    );
    expect(direct).toEqual([401, 401, 401, 429]);
  });

  it('without trusted proxies X-Forwarded-For is ignored', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++)
      statuses.push(
        (await loginFrom(ip, '/api/users/login', { headers: { 'x-forwarded-for': `192.0.2.${attempt + 1}` } }))
          .statusCode,
      );
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});

describe('shared counters in Postgres', () => {
  it('two app instances with separate memory count against the same limit', async () => {
    // h.app and `proxied` are separate Fastify instances (their own plugin state), on one database.
    const client = '198.51.100.30';
    const first = await statusesOf(2, () =>
      h.call({ method: 'POST', url: '/api/users/login', remoteAddress: client, payload: LOGIN }),
    );
    const second = await proxied.inject({
      method: 'POST',
      url: '/api/users/login',
      headers: { 'x-forwarded-for': client },
      payload: LOGIN,
    });
    const third = await h.call({ method: 'POST', url: '/api/users/login', remoteAddress: client, payload: LOGIN });
    const fourth = await proxied.inject({
      method: 'POST',
      url: '/api/users/login',
      headers: { 'x-forwarded-for': client },
      payload: LOGIN,
    });
    expect([...first, second.statusCode, third.statusCode, fourth.statusCode]).toEqual([401, 401, 401, 429, 429]);
    const row = await sql<{
      hits: string;
    }>`select hits::text from ratelimit.counters where key = ${`POST /api/users/login|ip:${client}`}`.execute(
      h.database.db,
    );
    expect(row.rows).toEqual([{ hits: '5' }]);
  });

  it('a window restarts when it ends, and expired rows are swept', async () => {
    const key = `test|${freshIp()}`;
    expect(await countRequest(h.database.db, key, 200)).toMatchObject({ current: 1 });
    const second = await countRequest(h.database.db, key, 200);
    expect(second.current).toBe(2);
    expect(second.ttl).toBeGreaterThan(0);
    expect(second.ttl).toBeLessThanOrEqual(200);
    // Not a wait for the system: the 200 ms window is timed by the database's clock, so the
    // test lets it run out (and then the new one) for real.
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await countRequest(h.database.db, key, 200)).toMatchObject({ current: 1 });
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await sweepExpired(h.database.db)).toBeGreaterThanOrEqual(1);
    const left = await sql<{ n: number }>`select count(*)::int as n from ratelimit.counters where key = ${key}`.execute(
      h.database.db,
    );
    expect(left.rows[0]?.n).toBe(0);
  });

  it('a batch counts each request in turn, a key asked several times included', async () => {
    const [a, b] = [`batch|${freshIp()}`, `batch|${freshIp()}`];
    await countRequest(h.database.db, a, 60_000);
    const outcomes = await countRequests(h.database.db, [
      { key: a, windowMs: 60_000 },
      { key: b, windowMs: 60_000 },
      { key: a, windowMs: 60_000 },
      { key: a, windowMs: 60_000 },
    ]);
    expect(outcomes.map((outcome) => (outcome.ok ? outcome.value.current : 'failed'))).toEqual([2, 1, 3, 4]);
    const rows = await sql<{ key: string; hits: string }>`
      select key, hits::text from ratelimit.counters where key in (${a}, ${b}) order by key = ${a} desc`.execute(
      h.database.db,
    );
    expect(rows.rows).toEqual([
      { key: a, hits: '4' },
      { key: b, hits: '1' },
    ]);
  });

  it('a batch of signed-in requests counts each under its account only while its session is live', async () => {
    const live = await activeUser('batch-live@example.com');
    const ended = await activeUser('batch-ended@example.com');
    await identityDb(h.database.db)
      .updateTable('identity.users')
      .set((eb) => ({ session_version: eb('session_version', '+', 1) }))
      .where('id', '=', ended.id)
      .execute();
    const versionOf = async (id: string) =>
      (
        await identityDb(h.database.db)
          .selectFrom('identity.users')
          .select('session_version')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).session_version;
    const ip = freshIp();
    const request = (userId: string, sessionVersion: number) => ({
      userId,
      sessionVersion,
      accountKey: `read:${userId}`,
      addressKey: `ip:${ip}`,
      windowMs: 60_000,
    });
    const liveVersion = await versionOf(live.id);
    const outcomes = await countSignedInRequests(h.database.db, [
      request(live.id, liveVersion),
      request(ended.id, (await versionOf(ended.id)) - 1),
      request('no-such-user', 0),
      request(live.id, liveVersion),
    ]);
    expect(
      outcomes.map((outcome) =>
        outcome.ok
          ? { key: outcome.value.countedKey, current: outcome.value.count.current, user: outcome.value.account?.id }
          : 'failed',
      ),
    ).toEqual([
      { key: `read:${live.id}`, current: 1, user: live.id },
      // The old session's user is still read (the guard says why it is refused), counted by address.
      { key: `ip:${ip}`, current: 1, user: ended.id },
      { key: `ip:${ip}`, current: 2, user: undefined },
      { key: `read:${live.id}`, current: 2, user: live.id },
    ]);
  });

  it("a process's concurrent requests, counted in batches, each get a count of their own", async () => {
    const key = `together|${freshIp()}`;
    const handle = createPostgresRateLimitStore(h.database.db);
    const store = new handle.Store({});
    const counts = await Promise.all(
      Array.from(
        { length: 40 },
        () =>
          new Promise<number>((resolve, reject) =>
            store.incr(key, (error, result) => (error ? reject(error) : resolve(result?.current ?? 0)), 60_000, 100),
          ),
      ),
    );
    expect([...counts].sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    await handle.idle();
  });

  it('counted requests sweep expired rows, batch after batch while batches come back full', async () => {
    const prefix = `expired-${freshIp()}`;
    await sql`insert into ratelimit.counters (key, hits, reset_at)
      select ${prefix} || '|' || n, 1, now() - interval '1 minute' from generate_series(1, ${SWEEP_BATCH_ROWS + 10}) as n`.execute(
      h.database.db,
    );
    const expiredLeft = async () =>
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from ratelimit.counters where key like ${`${prefix}|%`}`.execute(h.database.db)
      ).rows[0]?.n;
    const handle = createPostgresRateLimitStore(h.database.db);
    const store = new handle.Store({});
    const count = () =>
      new Promise<number>((resolve, reject) =>
        store.incr(
          `sweep|${prefix}`,
          (error, result) => (error ? reject(error) : resolve(result?.current ?? 0)),
          60_000,
          10,
        ),
      );
    expect(await count()).toBe(1);
    await handle.idle();
    expect(await expiredLeft()).toBe(10);
    // The first batch was full, so the next counted request sweeps again at once (not a minute later).
    expect(await count()).toBe(2);
    await handle.idle();
    expect(await expiredLeft()).toBe(0);
  });

  it('with the database unreachable a limited route answers 503 in the envelope, never 500 and never unlimited', async () => {
    // Port 1 on loopback: nothing listens, every connection is refused (ECONNREFUSED).
    const dead = openDatabase<unknown>({
      connectionString: 'postgres://wallet@127.0.0.1:1/nowhere',
      maxConnections: 1,
    });
    const app = await startSiblingApp(h, {}, { db: dead.db, pool: dead.pool });
    try {
      const { token } = await activeUser('database-down@example.com');
      for (const request of [
        { method: 'POST' as const, url: '/api/users/login', payload: LOGIN },
        { method: 'GET' as const, url: '/api/config' },
        { method: 'GET' as const, url: '/api/nothing' },
        // Signed in: the user's read and the count, one statement, fail together.
        { method: 'GET' as const, url: '/api/users/generate-qr', headers: { authorization: `Bearer ${token}` } },
      ]) {
        const reply = await app.inject(request);
        expect(reply.statusCode, request.url).toBe(503);
        expect(reply.json()).toEqual({
          success: false,
          message: 'The service is temporarily unavailable. Please try again shortly.',
          code: 'database_unavailable',
        });
      }
    } finally {
      await app.close();
      await dead.db.destroy();
    }
  });
});

describe('the card webhook', () => {
  it('is exempt from the per-IP limit (the provider sends from few addresses; its signature is its check)', async () => {
    const ip = freshIp();
    const statuses = await statusesOf(LIMITS.max + 3, () =>
      h.call({ method: 'POST', url: '/api/payments/card/webhook', remoteAddress: ip, payload: { id: 'evt_1' } }),
    );
    expect(statuses.filter((status) => status === 429)).toEqual([]);
    // Also under another spelling of its path, and it spends none of the client's API budget.
    expect(
      (await h.call({ method: 'POST', url: '/api/payments/card/%77ebhook', remoteAddress: ip, payload: {} }))
        .statusCode,
    ).not.toBe(429);
    expect((await h.call({ method: 'GET', url: '/api/config', remoteAddress: ip })).statusCode).toBe(200);
  });
});

/** Sends a request line exactly as written (no client-side URL normalisation) to the proxied app. */
function rawPost(target: string, forwardedFor: string): Promise<{ status: number; body: string }> {
  const body = JSON.stringify(LOGIN);
  const head = [
    `POST ${target} HTTP/1.1`,
    'Host: wallet.test',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Forwarded-For: ${forwardedFor}`,
    'Connection: close',
  ];
  return new Promise((resolve, reject) => {
    const socket = connect(proxiedPort, '127.0.0.1', () => socket.write(`${head.join('\r\n')}\r\n\r\n${body}`));
    let response = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (response += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);
      resolve({ status, body: response.slice(response.indexOf('\r\n\r\n') + 4) });
    });
  });
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** An HS256 JWT signed with `secret` (to make forged and expired tokens). */
function hs256(payload: Record<string, unknown>, secret: string): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}
