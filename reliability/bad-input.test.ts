/**
 * Bad input on every API route (reliability): fast-check generates bodies, query
 * strings and path parameters - wrong types, missing fields, huge strings, unicode, NaN and
 * Infinity, negative and over-precise amounts, very long ids, SQL and HTML fragments, arrays,
 * deep nesting, raw non-JSON - and sends them as anonymous, as a signed-in user and as the
 * admin. Properties: never a 5xx; a failure is always the JSON envelope with a message; a
 * rejection appends nothing to ledger.events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ADMIN, registeredUser, signIn, startProjectedHarness, type Harness } from '../test/app-harness.ts';
import { eventCount } from '../test/database.ts';
import { evilBody, evilString, type EvilRequest } from './generators.ts';

interface Route {
  method: 'GET' | 'POST';
  path: string;
}

const RUNS_PER_ROUTE = Number(process.env.RELIABILITY_RUNS ?? 40);

let harness: Harness;
let tokens: { anonymous: undefined; user: string; admin: string };
let routes: Route[];

beforeAll(async () => {
  harness = await startProjectedHarness({ readYourWritesTimeoutMs: 300 });
  const user = await registeredUser(harness, 'fuzz@example.in');
  tokens = { anonymous: undefined, user: user.token ?? '', admin: await signIn(harness, ADMIN.email, ADMIN.password) };
  routes = apiRoutes(harness.app.printRoutes({ commonPrefix: false }));
}, 120_000);

afterAll(async () => {
  await harness?.close();
});

/** The app's own route table: every /api route with the methods it answers (HEAD/OPTIONS aside). */
function apiRoutes(printed: string): Route[] {
  const found: Route[] = [];
  for (const line of printed.split('\n')) {
    const match = /(\/api\/\S*) \(([A-Z, ]+)\)/.exec(line);
    if (!match?.[1] || !match[2]) continue;
    for (const method of match[2].split(',').map((item) => item.trim())) {
      if (method === 'GET' || method === 'POST') found.push({ method, path: match[1] });
    }
  }
  return found;
}

/** The assertion that failed (fast-check wraps it), short enough to read. */
function describeFailure(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
  return `${cause.slice(0, 600)}\n${String(error).slice(0, 600)}`;
}

function fillPath(path: string, parameter: string): string {
  return path.replace(/:[A-Za-z]+/g, () => encodeURIComponent(parameter));
}

async function send(route: Route, token: string | undefined, request: EvilRequest, parameter: string) {
  const headers: Record<string, string> = {
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(request.contentType ? { 'content-type': request.contentType } : {}),
  };
  const url = `${fillPath(route.path, parameter)}${request.query ? `?${request.query}` : ''}`;
  return harness.app.inject({
    method: route.method,
    url,
    headers,
    ...(route.method === 'POST' && request.body !== undefined ? { payload: request.body } : {}),
  });
}

describe('bad input on every API route', () => {
  it('lists the spec routes from the app', () => {
    const paths = new Set(routes.map((route) => `${route.method} ${route.path}`));
    for (const expected of [
      'POST /api/users/register',
      'POST /api/users/login',
      'POST /api/transactions/transfer-funds',
      'POST /api/requests/send-request',
      'POST /api/admin/reverse',
      'POST /api/payments/card/webhook',
    ])
      expect(paths, expected).toContain(expected);
    expect(routes.length).toBeGreaterThan(25);
  });

  // Regression: fastify's router answered a path parameter over maxParamLength with its own
  // body (no envelope) echoing the whole path; api/envelope.ts frameworkErrorEnvelope now answers.
  it('answers a 10,000-character path parameter with the envelope', async () => {
    const response = await harness.app.inject({
      method: 'GET',
      url: `/api/admin/accounts/${'x'.repeat(10_000)}/events`,
      headers: { authorization: `Bearer ${tokens.admin}` },
    });
    expect(response.statusCode).toBe(414);
    expect(JSON.parse(response.body)).toEqual({
      success: false,
      message: 'A path parameter is too long',
      code: 'validation_failed',
    });
    const badEscape = await harness.app.inject({
      method: 'GET',
      url: '/api/admin/accounts/%E0%A4%A/events',
      headers: { authorization: `Bearer ${tokens.admin}` },
    });
    expect(badEscape.statusCode).toBe(400);
    expect(JSON.parse(badEscape.body)).toMatchObject({ success: false, message: 'Invalid URL' });
  });

  it('never answers 5xx, always the envelope, appends nothing on a rejection', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      // The probes take no input, and readiness answers 503 by design whenever a projection lags.
      if (route.path.startsWith('/api/health') || route.path === '/api/config') continue;
      await fc
        .assert(
          fc.asyncProperty(
            evilBody(),
            evilString(),
            fc.constantFrom('anonymous', 'user', 'admin') as fc.Arbitrary<keyof typeof tokens>,
            async (request, parameter, caller) => {
              const before = await eventCount(harness.database.db);
              const response = await send(route, tokens[caller], request, parameter);
              const context = `${caller} ${route.method} ${route.path} -> ${response.statusCode} ${response.body.slice(0, 300)}`;
              expect(response.statusCode, context).toBeLessThan(500);
              const type = String(response.headers['content-type'] ?? '');
              if (response.statusCode >= 400 || type.includes('json')) {
                expect(type, context).toContain('application/json');
                const body = JSON.parse(response.body) as { success?: unknown; message?: unknown };
                expect(typeof body.success, context).toBe('boolean');
                expect(typeof body.message === 'string' && body.message.length > 0, context).toBe(true);
                if (response.statusCode >= 400) expect(body.success, context).toBe(false);
                if (body.success === false)
                  expect(await eventCount(harness.database.db), `appended on rejection: ${context}`).toBe(before);
              }
            },
          ),
          { numRuns: RUNS_PER_ROUTE, endOnFailure: true },
        )
        .catch((error: unknown) => failures.push(`${route.method} ${route.path}: ${describeFailure(error)}`));
    }
    expect(failures, failures.join('\n\n')).toEqual([]);
  });
});
