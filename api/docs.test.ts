/**
 * The OpenAPI document (GET /api/docs/json) describes the whole API: it passes a real
 * OpenAPI validator (@apidevtools/swagger-parser), and every route the app registers is in
 * it with its replies (the success shape and the error envelope) and, where the route takes
 * input, its request schema - all generated from the zod contracts (api/docs.ts).
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../platform/config.ts';
import { PUBLIC_URL, startHarness, startSiblingApp, type Harness } from '../test/app-harness.ts';
import { appConfigFrom } from './app.ts';
import { DOCS_PREFIX } from './docs.ts';

/** Registered routes the document leaves out on purpose, with the reason. */
const EXCLUDED: readonly { route: RegExp; why: string }[] = [
  { route: new RegExp(`^GET ${DOCS_PREFIX}`), why: "the docs UI's own pages, scripts and the document itself" },
  { route: /^GET \/\*$/, why: "the web app's static files and client-side routes (HTML, not API)" },
  { route: /^HEAD /, why: "Fastify's automatic HEAD twin of every GET" },
  { route: /^OPTIONS \/\*$/, why: "@fastify/cors's preflight answer for every path" },
];

/** API routes that take no input at all (no body, query or path parameter is read). */
const NO_INPUT: ReadonlySet<string> = new Set([
  'POST /api/users/logout',
  'GET /api/users/get-all-users',
  'GET /api/users/generate-qr', // any query is ignored on purpose (the spec's client sends junk)
  'GET /api/config',
  'GET /api/stats',
  'GET /api/health',
  'GET /api/health/live',
  'GET /api/health/ready',
  'GET /metrics',
  'GET /api/admin/trial-balance',
  'POST /api/admin/trial-balance/verify',
  'GET /api/admin/projections',
  'GET /api/admin/pending-deposits.csv',
  'GET /api/transactions/recent-payees', // always the caller's own
]);

interface Operation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema?: Record<string, unknown> }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
}

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * "METHOD /url" of every route, read from Fastify's own route table: printRoutes' tree, one
 * method at a time (printed together, a wildcard node shows only one method's routes).
 */
function registeredRoutes(app: FastifyInstance): string[] {
  return HTTP_METHODS.flatMap((method) => {
    const parents: string[] = [];
    const routes: string[] = [];
    for (const line of app.printRoutes({ commonPrefix: false, method }).split('\n')) {
      const match = /^((?:[│ ] {3})*)[├└]── (.+) \([A-Z]+\)$/.exec(line) ?? /^((?:[│ ] {3})*)[├└]── (.+)$/.exec(line);
      if (!match) continue;
      const depth = (match[1]?.length ?? 0) / 4;
      const path = `${depth === 0 ? '' : parents[depth - 1]}${match[2]}`;
      parents[depth] = path;
      if (line.endsWith(`(${method})`)) routes.push(`${method} ${path.startsWith('/') ? path : `/${path}`}`);
    }
    return routes;
  });
}

async function documentOf(app: FastifyInstance): Promise<Document> {
  const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(response.statusCode).toBe(200);
  return response.json();
}

/** The problems of one route's entry in the document; empty when it is fully described. */
function problemsOf(route: string, document: Document): string[] {
  const [method = '', url = ''] = route.split(' ');
  const operation = document.paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
  if (!operation) return [`${route}: not in the document`];
  const problems: string[] = [];
  const statuses = Object.keys(operation.responses);
  const successes = statuses.filter((status) => /^[23]/.test(status));
  if (successes.length === 0) problems.push(`${route}: no success reply`);
  for (const status of successes) {
    const reply = operation.responses[status];
    if (reply?.description === 'Default Response') problems.push(`${route}: ${status} is the generator's placeholder`);
    const redirect = status.startsWith('3');
    if (!redirect && !Object.values(reply?.content ?? {}).some((media) => media.schema))
      problems.push(`${route}: ${status} has no schema`);
  }
  const errors = statuses.filter((status) => /^[45]/.test(status));
  if (errors.length === 0) problems.push(`${route}: no error reply`);
  for (const status of errors) {
    const schema = operation.responses[status]?.content?.['application/json']?.schema;
    if (!schema || !JSON.stringify(schema).includes('"success"'))
      problems.push(`${route}: ${status} is not the error envelope`);
  }
  const pathParameters = [...url.matchAll(/:(\w+)/g)].map((found) => found[1] ?? '');
  const documented = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
  for (const name of pathParameters)
    if (!documented.includes(name)) problems.push(`${route}: path parameter ${name} undocumented`);
  const takesInput = operation.requestBody !== undefined || (operation.parameters ?? []).length > 0;
  if (!NO_INPUT.has(route) && !takesInput) problems.push(`${route}: takes input but documents none`);
  if (NO_INPUT.has(route) && takesInput) problems.push(`${route}: listed as taking no input but documents some`);
  return problems;
}

function documentedRoutes(app: FastifyInstance): string[] {
  return registeredRoutes(app).filter((route) => !EXCLUDED.some((exclusion) => exclusion.route.test(route)));
}

let harness: Harness;
/** With Google sign-in configured (@fastify/oauth2 registers the start route) and the web app's catch-all. */
let siblingApp: FastifyInstance;

beforeAll(async () => {
  harness = await startHarness({ webDistDir: '/nonexistent/web/dist' });
  siblingApp = await startSiblingApp(harness, {
    google: {
      clientId: 'client-id',
      clientSecret: 'client-secret',
      authorizeUrl: 'https://accounts.google.test/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.google.test/token',
      userinfoUrl: 'https://openidconnect.google.test/v1/userinfo',
      callbackUrl: `${PUBLIC_URL}/auth/google/callback`,
    },
  });
  await siblingApp.ready();
}, 120_000);

afterAll(async () => {
  await siblingApp.close();
  await harness.close();
});

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3 (swagger-parser validate: structure, schemas and references)', async () => {
    const document = await documentOf(harness.app);
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  });

  it.each([
    ['without Google sign-in', () => harness.app],
    ['with Google sign-in', () => siblingApp],
  ])('describes every registered route %s, with its replies and its input', async (_name, appOf) => {
    const app = appOf();
    const routes = documentedRoutes(app);
    // The route table was read: the exclusions matched, and the API is all there.
    expect(routes.length).toBeGreaterThan(40);
    expect(registeredRoutes(app)).toContain('GET /*');
    expect(routes).toContain('POST /api/admin/approvals/:id/approve');
    expect(routes).toContain('GET /auth/google');
    const document = await documentOf(app);
    expect(routes.flatMap((route) => problemsOf(route, document))).toEqual([]);
  });

  it('takes requests and replies from the zod contracts', async () => {
    const document = await documentOf(harness.app);
    const transfer = document.paths['/api/transactions/transfer-funds']?.post;
    const body = transfer?.requestBody?.content['application/json']?.schema as { properties: Record<string, unknown> };
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(['receiver', 'amount', 'reference']));
    expect(transfer?.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ in: 'header', name: 'idempotency-key' })]),
    );
    const reply = transfer?.responses['200']?.content?.['application/json']?.schema as {
      properties: { data: { properties: Record<string, unknown> } };
    };
    expect(Object.keys(reply.properties.data.properties)).toEqual(
      expect.arrayContaining(['transactionId', 'amount', 'checkpoint', 'replayed']),
    );
    const user = document.paths['/api/users/get-user-info']?.post?.responses['200']?.content?.['application/json']
      ?.schema as { properties: { data: { properties: Record<string, unknown>; required: string[] } } };
    expect(user.properties.data.required).toEqual(expect.arrayContaining(['_id', 'balance', 'isVerified']));
    // Signed-in routes say so, with the 401 they answer.
    expect(document.paths['/api/users/get-user-info']?.post?.responses['401']).toBeDefined();
  });

  it('leaves what the wire carries alone: requests are checked by the zod contracts, replies not trimmed', async () => {
    // A body the schema refuses gets the contract's zod message (not Ajv's), and a reply
    // keeps every field the handler sent.
    const refused = await harness.call({ method: 'POST', url: '/api/users/login', payload: { email: 'x' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ success: false, message: 'Email is invalid', code: 'validation_failed' });
    const config = await harness.call({ method: 'GET', url: '/api/config' });
    expect(config.json()).toEqual({
      success: true,
      message: 'ok',
      data: { googleSignIn: false, cardProvider: 'sandbox' },
    });
  });
});

describe('API_DOCS: the docs are a setting, off in production unless asked for', () => {
  const secrets = { jwtSecret: 'x'.repeat(32), pinPepper: 'y'.repeat(32) };
  const apiDocsOf = (env: NodeJS.ProcessEnv) => appConfigFrom(loadConfig(env), secrets).apiDocs;

  it('defaults to off with NODE_ENV=production and on otherwise; API_DOCS=true|false decides', () => {
    expect(apiDocsOf({ NODE_ENV: 'production' })).toBe(false);
    expect(apiDocsOf({})).toBe(true);
    expect(apiDocsOf({ NODE_ENV: 'development' })).toBe(true);
    expect(apiDocsOf({ NODE_ENV: 'production', API_DOCS: 'true' })).toBe(true);
    expect(apiDocsOf({ API_DOCS: 'false' })).toBe(false);
    // docker-compose passes unset settings as empty strings: the default.
    expect(apiDocsOf({ NODE_ENV: 'production', API_DOCS: '' })).toBe(false);
    expect(() => loadConfig({ API_DOCS: 'yes' })).toThrow(/API_DOCS/);
  });

  it('off: /api/docs and its document answer 404 in the envelope, and the API answers as before', async () => {
    const app = await startSiblingApp(harness, { apiDocs: false });
    try {
      for (const url of [DOCS_PREFIX, `${DOCS_PREFIX}/`, `${DOCS_PREFIX}/json`, `${DOCS_PREFIX}/static/index.html`]) {
        const reply = await app.inject({ method: 'GET', url });
        expect(reply.statusCode, url).toBe(404);
        expect(reply.json(), url).toMatchObject({ success: false, code: 'not_found' });
      }
      // Still no validation or trimming by the schemas.
      const refused = await app.inject({ method: 'POST', url: '/api/users/login', payload: { email: 'x' } });
      expect(refused.json()).toEqual({ success: false, message: 'Email is invalid', code: 'validation_failed' });
      const config = await app.inject({ method: 'GET', url: '/api/config' });
      expect(config.json()).toEqual({
        success: true,
        message: 'ok',
        data: { googleSignIn: false, cardProvider: 'sandbox' },
      });
    } finally {
      await app.close();
    }
  });
});
