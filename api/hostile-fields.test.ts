/**
 * Hostile field values on every route that answers without a token (security finding: one
 * unauthenticated request froze the whole API). The e-mail pattern backtracked quadratically
 * on `a@` + dots + `@`, and zod ran it after `.max(254)` had already failed, so it read the
 * whole body: a long e-mail held the event loop for seconds, and the health probe waited with it.
 *
 * Here every string field of every tokenless route that reads input gets, in turn, a value of
 * each hostile shape as large as the body limit allows, and must be refused with a 400 in the
 * envelope - while GET /api/health/live keeps answering for as long as the hostile request is
 * in flight. No timing is asserted: a blocked server shows as the test's timeout.
 *
 * The server is `node bin/server.ts` in a process of its own (as deployed): a blocked event
 * loop there cannot also stop this file's timers, so the test fails instead of hanging. Which
 * routes answer without a token, and which string fields they read, is read from the server's
 * own OpenAPI document, so a new tokenless route or field is attacked too (or the test says
 * it has no valid payload for it). The rate limits are configured out (RATE_LIMIT_*): 429 is
 * never taken for success.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelopeSchema } from '../contracts/envelope.ts';
import { freePort } from '../platform/embedded-postgres.ts';
import { VALID_REGISTRATION } from '../test/app-harness.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { processEnvironment, spawnEntryPoint, stopProcess, waitForHealth } from '../test/processes.ts';

/** The API's body limit (api/app.ts `bodyLimit`; a test below checks one byte more is refused). */
const BODY_LIMIT_BYTES = 1024 * 1024;
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;
/** Per route: every field times every shape, each ~1 MiB. Generous: a blocked server takes minutes per request. */
const ROUTE_TIMEOUT_MS = 120_000;
/** The card webhook's own body limit (api/routes/card-webhook.ts). */
const WEBHOOK_BODY_LIMIT_BYTES = 256 * 1024;
/** Node's default request-header limit is 16 KiB: a query string stays well below it. */
const QUERY_BYTES = 8 * 1024;

/** Each shape: one unit, repeated to the size wanted (the `a@...@` shape is built around its dots). */
const SHAPES: Record<string, (bytes: number) => string> = {
  'at signs': (bytes) => repeatTo('@', bytes),
  dots: (bytes) => repeatTo('.', bytes),
  'a@ repeated': (bytes) => repeatTo('a@', bytes),
  'a@ then dots then @': (bytes) => `a@${'.'.repeat(bytes - 3)}@`,
  'a@b then dots': (bytes) => `a@b${'.'.repeat(bytes - 3)}`,
  'percent signs': (bytes) => repeatTo('%', bytes),
  spaces: (bytes) => repeatTo(' ', bytes),
  digits: (bytes) => repeatTo('9', bytes),
  'rupee signs': (bytes) => repeatTo('₹', bytes),
  Devanagari: (bytes) => repeatTo('नमस्ते', bytes),
};

function repeatTo(unit: string, bytes: number): string {
  return unit.repeat(Math.floor(bytes / Buffer.byteLength(unit)));
}

const EMAIL = 'hostile@example.com';
const OTP = '123456';

/** A payload valid in every field, per tokenless route that takes a JSON body. */
const VALID_BODIES: Record<string, Record<string, unknown>> = {
  'POST /api/users/register': { ...VALID_REGISTRATION, email: EMAIL },
  'POST /api/users/login': { email: EMAIL, password: 'some-password-1' },
  'POST /api/users/send-password-reset-otp': { email: EMAIL },
  'POST /api/users/resend-password-reset-otp': { email: EMAIL },
  'POST /api/users/verify-password-reset-otp': { email: EMAIL, otp: OTP },
  'POST /api/users/send-pin-reset-otp': { email: EMAIL },
  'POST /api/users/resend-pin-reset-otp': { email: EMAIL },
  'POST /api/users/verify-pin-reset-otp': { email: EMAIL, otp: OTP },
  'POST /api/users/reset-password': { email: EMAIL, otp: OTP, newPassword: 'new-password-1' },
  'POST /api/users/reset-transaction-pin': { email: EMAIL, otp: OTP, newPin: '4321' },
};

/** Tokenless routes with input that are not plain JSON-body forms, attacked by tests of their own below. */
const OTHER_ROUTES = new Set(['POST /api/payments/card/webhook', 'GET /auth/google', 'GET /auth/google/callback']);

interface OpenApiOperation {
  security?: unknown[];
  parameters?: { in: string; name: string; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}
interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  maxLength?: number;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

/**
 * Inputs the server documents but does not read with these schemas: the card webhook's body is
 * read raw and trusted only after its signature; Google's callback query is read by
 * @fastify/oauth2 (and no query passes Node's 16 KiB header limit).
 */
const DESCRIBED_ONLY = new Set(['POST /api/payments/card/webhook', 'GET /auth/google/callback']);

interface TokenlessRoute {
  key: string;
  stringFields: string[];
}

let database: TestDatabase<unknown>;
let dataDir: string;
let child: ChildProcess | undefined;
let output = '';
let baseUrl: string;
let tokenless: TokenlessRoute[];
let document: { paths: Record<string, Record<string, OpenApiOperation>> };

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'wallet-hostile-fields-'));
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  const environment = processEnvironment(
    {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      ADMIN_EMAIL: 'admin@hostile.test',
      ADMIN_PASSWORD: 'hostile-admin-1',
      JWT_SECRET: 'hostile-secret-0123456789-abcdefghijklmnop',
      RATE_LIMIT_MAX: '1000000',
      RATE_LIMIT_AUTH_MAX: '1000000',
      RUN_WORKERS: 'false',
    },
    ['EMBEDDED_POSTGRES_PORT'],
  );
  // Google configured, so its routes read their queries (a closed port: nothing is ever fetched,
  // the callback is refused on its state before any call).
  Object.assign(environment, {
    GOOGLE_CLIENT_ID: 'hostile-client',
    GOOGLE_CLIENT_SECRET: 'hostile-client-secret',
    GOOGLE_AUTHORIZE_URL: 'http://127.0.0.1:9/authorize',
    GOOGLE_TOKEN_URL: 'http://127.0.0.1:9/token',
    GOOGLE_USERINFO_URL: 'http://127.0.0.1:9/userinfo',
  });
  child = spawnEntryPoint('bin/server.ts', environment);
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitForHealth(baseUrl, child, { timeoutMs: START_TIMEOUT_MS, log: () => output });
  document = await (await fetch(`${baseUrl}/api/docs/json`)).json();
  tokenless = tokenlessRoutesWithInput();
}, START_TIMEOUT_MS + 30_000);

afterAll(async () => {
  if (child) await stopProcess(child, STOP_TIMEOUT_MS);
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

/** Every operation of the server's OpenAPI document without bearer security that reads a body or a query. */
function tokenlessRoutesWithInput(): TokenlessRoute[] {
  const routes: TokenlessRoute[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (operation.security?.length) continue;
      const body = operation.requestBody?.content?.['application/json']?.schema;
      const query = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query');
      if (!body && query.length === 0) continue;
      routes.push({
        key: `${method.toUpperCase()} ${path}`,
        stringFields: [...stringPropertiesOf(body), ...query.map((parameter) => parameter.name)],
      });
    }
  }
  return routes;
}

/** The top-level properties a body schema (or any member of its union) reads as text. */
function stringPropertiesOf(schema: JsonSchema | undefined): string[] {
  if (!schema) return [];
  const names = new Set<string>();
  for (const member of [schema, ...(schema.anyOf ?? [])]) {
    for (const [name, property] of Object.entries(member.properties ?? {}))
      if (property.type === 'string' || property.enum?.every((value) => typeof value === 'string')) names.add(name);
  }
  return [...names];
}

/** Where `schema` lets a string through without a maximum length (enums are bounded by their values). */
function unboundedStrings(schema: JsonSchema | undefined, where: string): string[] {
  if (!schema) return [];
  const types = [schema.type ?? []].flat();
  const own = types.includes('string') && schema.maxLength === undefined && !schema.enum ? [where] : [];
  const extra = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  return [
    ...own,
    ...Object.entries(schema.properties ?? {}).flatMap(([name, child]) => unboundedStrings(child, `${where}.${name}`)),
    ...unboundedStrings(extra, `${where}.*`),
    ...unboundedStrings(schema.items, `${where}[]`),
    ...[...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])].flatMap((member, index) =>
      unboundedStrings(member, `${where}|${index}`),
    ),
  ];
}

/**
 * Sends `request` and, for as long as it is in flight, asks /api/health/live again and again:
 * each probe must answer 200. Resolves with the hostile request's reply.
 */
async function whileHealthAnswers(request: Promise<Response>): Promise<{ status: number; body: string }> {
  let settled = false;
  const reply = replyOf(request).finally(() => (settled = true));
  // Handled here too: a probe that fails leaves the reply unawaited (it rejects when the server is stopped).
  reply.catch(() => undefined);
  let probes = 0;
  do {
    const health = await fetch(`${baseUrl}/api/health/live`);
    expect(health.status).toBe(200);
    await health.arrayBuffer();
    probes += 1;
  } while (!settled);
  expect(probes).toBeGreaterThan(0);
  return reply;
}

async function replyOf(request: Promise<Response>): Promise<{ status: number; body: string }> {
  const response = await request;
  return { status: response.status, body: await response.text() };
}

function expectRefusedInEnvelope(reply: { status: number; body: string }, what: string): void {
  expect(reply.status, `${what}: ${reply.body.slice(0, 300)}`).toBe(400);
  // The envelope, small: nothing of the hostile value is echoed back.
  expect(reply.body.length, what).toBeLessThan(1_000);
  const envelope = errorEnvelopeSchema.parse(JSON.parse(reply.body));
  expect(envelope.code, what).toBe('validation_failed');
  expect(envelope.message, what).not.toBe('');
}

describe('the OpenAPI document', () => {
  it('gives every string a request may carry, on every route, a maximum length', () => {
    const unbounded: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const route = `${method.toUpperCase()} ${path}`;
        if (DESCRIBED_ONLY.has(route)) continue;
        unbounded.push(
          ...unboundedStrings(operation.requestBody?.content?.['application/json']?.schema, `${route} body`),
        );
        for (const parameter of operation.parameters ?? [])
          unbounded.push(...unboundedStrings(parameter.schema, `${route} ${parameter.in} ${parameter.name}`));
      }
    }
    expect(unbounded).toEqual([]);
  });
});

describe('every tokenless route that reads input is known here', () => {
  it('the OpenAPI document lists exactly the routes this file attacks', () => {
    expect(tokenless.map((route) => route.key).sort()).toEqual([...Object.keys(VALID_BODIES), ...OTHER_ROUTES].sort());
  });

  it.each(Object.entries(VALID_BODIES))('%s: the valid payload passes validation', async (key, body) => {
    // Not refused by validation (a wrong code or password is fine): each hostile field below is the one thing refused.
    const [method, path] = key.split(' ');
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    expect(response.status, `${key}: ${text}`).toBeLessThan(500);
    expect((JSON.parse(text) as { code?: string }).code, `${key}: ${text}`).not.toBe('validation_failed');
  });
});

describe('the body limit', () => {
  it('is the one this file fills: a body of exactly the limit is read, one byte more is refused (413)', async () => {
    const bodyOf = (bytes: number) => `{"email":"${'x'.repeat(bytes - '{"email":""}'.length)}"}`;
    const send = (body: string) =>
      fetch(`${baseUrl}/api/users/send-password-reset-otp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    expect(Buffer.byteLength(bodyOf(BODY_LIMIT_BYTES))).toBe(BODY_LIMIT_BYTES);
    expectRefusedInEnvelope(await replyOf(send(bodyOf(BODY_LIMIT_BYTES))), 'at the limit');
    expect((await send(bodyOf(BODY_LIMIT_BYTES + 1))).status).toBe(413);
  });
});

describe('~1 MiB hostile values in every string field, one at a time', () => {
  it.each(Object.keys(VALID_BODIES))(
    '%s',
    async (key) => {
      const route = tokenless.find((candidate) => candidate.key === key);
      const valid = VALID_BODIES[key] ?? {};
      expect(route?.stringFields.length, key).toBeGreaterThan(0);
      const [method, path] = key.split(' ');
      for (const field of route?.stringFields ?? []) {
        expect(valid, `${key}: the valid payload lacks ${field}`).toHaveProperty(field);
        const room = BODY_LIMIT_BYTES - Buffer.byteLength(JSON.stringify({ ...valid, [field]: '' })) - 16;
        for (const [shape, make] of Object.entries(SHAPES)) {
          const body = JSON.stringify({ ...valid, [field]: make(room) });
          const bytes = Buffer.byteLength(body);
          expect(bytes).toBeLessThanOrEqual(BODY_LIMIT_BYTES);
          expect(bytes).toBeGreaterThan(BODY_LIMIT_BYTES - 64);
          const reply = await whileHealthAnswers(
            fetch(`${baseUrl}${path}`, { method, headers: { 'content-type': 'application/json' }, body }),
          );
          expectRefusedInEnvelope(reply, `${key} ${field} (${shape})`);
        }
      }
    },
    ROUTE_TIMEOUT_MS,
  );
});

describe('the other tokenless routes', () => {
  it(
    'the card webhook: a hostile body up to its limit is refused (webhooks not configured: 404) in the envelope',
    async () => {
      for (const [shape, make] of Object.entries(SHAPES)) {
        const body = JSON.stringify({ id: make(WEBHOOK_BODY_LIMIT_BYTES - 64), type: 'payment_intent.succeeded' });
        const reply = await whileHealthAnswers(
          fetch(`${baseUrl}/api/payments/card/webhook`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'stripe-signature': `t=1,v1=${'a@.'.repeat(1_000)}` },
            body,
          }),
        );
        expect(reply.status, shape).toBe(404);
        expect(errorEnvelopeSchema.parse(JSON.parse(reply.body)).code, shape).toBe('not_found');
      }
    },
    ROUTE_TIMEOUT_MS,
  );

  it(
    'Google sign-in: hostile nonce, code and state queries end in the oauth_failed redirect or Google',
    async () => {
      for (const [shape, make] of Object.entries(SHAPES)) {
        // Percent-encoded, a byte is at most three characters.
        const value = encodeURIComponent(make(QUERY_BYTES / 3));
        for (const url of [
          `/auth/google?nonce=${value}`,
          `/auth/google/callback?code=${value}&state=x`,
          `/auth/google/callback?code=x&state=${value}`,
        ]) {
          const reply = await whileHealthAnswers(fetch(`${baseUrl}${url}`, { redirect: 'manual' }));
          expect(reply.status, `${shape} ${url.slice(0, 40)}`).toBe(302);
        }
      }
    },
    ROUTE_TIMEOUT_MS,
  );
});
