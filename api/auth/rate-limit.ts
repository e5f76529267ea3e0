/**
 * Rate limits (@fastify/rate-limit over the Postgres store of rate-limit-store.ts, shared by
 * every API process). Four budgets per window (15 minutes by default), all configuration:
 *
 * - each authentication route (sign-in, registration, one-time codes, PIN resets, Google
 *   callback): the spec's 10 per client IP, each route on its own;
 * - signed-in commands (money moved, requests sent or answered, deposits settled, replays and
 *   verify runs: every signed-in route that is not a read): the spec's 100 per account;
 * - signed-in reads (GET routes, and the POSTs that only read: READ_POSTS): RATE_LIMIT_READ_MAX
 *   per account. The spec's 100 per 15 minutes was met by about ten page visits and two
 *   payments (issue 41): a page visit reads 5-10 endpoints. The figure is sized from the
 *   browser test's scripted day (e2e/rate-limit.e2e.test.ts) with headroom; the arithmetic is in
 *   docs/decisions/0012. Without a figure of its own (tests' small settings) reads share `max`.
 * - everything anonymous, and any token that fails the session check: the spec's 100 per client
 *   IP (IPv6 by /64), which is the proxy's client when TRUST_PROXY_HOPS is set.
 *
 * Who is counted: on signed-in routes (those guarded by `app.authenticate` or
 * `app.requireAdmin`), the account of a live session, so people behind one NAT or proxy do not
 * share a budget; everywhere else, and for a token that fails the session check (missing, bad
 * signature, expired, unknown user, suspended, or ended by a sign-out or password reset), the
 * client IP. A leaked old token therefore spends its holder's address's budget, never its
 * owner's. The session check is the guard's own (`app.checkSession`, remembered on the
 * request). Under the shared limit the user is read in the statement that counts the request
 * (clientKey), so a signed-in request costs one round trip for both, and the guard judges the
 * session from that row.
 *
 * What is counted is decided on the route the router matched (`routeOptions.url`), never on
 * the raw URL: the router decodes the path, so `/%61pi/users/login` runs the sign-in handler
 * and must count as sign-in. Requests that match no route are counted under the address's
 * limit by the not-found handler's preHandler (`notFoundRateLimit`).
 *
 * Not limited: the web app's files and client routes, the health probe, /metrics (token or
 * loopback) and the API docs (/api/docs: static files and a prebuilt document, registered
 * before the limiter), the card provider's webhook (it sends from a few addresses, and its
 * signature check is its protection), and the replay progress read (GET
 * /api/admin/projections/:name/replay), kept for API clients that poll it (the web app reads
 * it once and then follows the live stream); it still requires an admin and is one indexed
 * row read.
 */
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler, RouteOptions } from 'fastify';
import type { Kysely } from 'kysely';
import { CARD_WEBHOOK_PATH } from '../../contracts/transactions.ts';
import { createPostgresRateLimitStore, type RateLimitStoreHandle } from './rate-limit-store.ts';

export interface RateLimitSettings {
  windowMs: number;
  /** Per client IP (anonymous) and per account for signed-in commands. */
  max: number;
  /** Per client IP on each authentication route. */
  authMax: number;
  /** Per account for signed-in reads; `max` when not given. */
  readMax?: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on routes guarded by authenticate/requireAdmin: counted per account. */
    signedIn?: boolean;
  }
}

/** Matched routes outside the limit, as "METHOD template" (HEAD counts as GET). */
const EXEMPT_ROUTES: ReadonlySet<string> = new Set([
  'GET /api/health',
  'GET /api/health/live',
  'GET /api/health/ready',
  'GET /api/admin/projections/:name/replay',
  `POST ${CARD_WEBHOOK_PATH}`,
]);

/**
 * Signed-in POST routes that only read (the spec made them POSTs), counted as reads. Every
 * other signed-in POST is a command: a route added later is held to the stricter budget until
 * it is listed here.
 */
const READ_POSTS: ReadonlySet<string> = new Set([
  '/api/users/get-user-info',
  '/api/transactions/get-all-transactions-by-user',
  '/api/users/logout',
]);

/** Installs the limiter; needs installAuth first (sessions are checked to key by account). */
export async function installRateLimit(
  app: FastifyInstance,
  options: { settings: RateLimitSettings; db: Kysely<unknown> },
): Promise<void> {
  markSignedInRoutes(app);
  const store = createPostgresRateLimitStore(options.db);
  await app.register(rateLimit, {
    global: true,
    max: (_request, key) => limitOf(options.settings, key),
    timeWindow: options.settings.windowMs,
    store: store.Store,
    keyGenerator: (request) => clientKey(app, request, { store, windowMs: options.settings.windowMs }),
    allowList: (request) => isExempt(request.method, request.routeOptions.url, wildcardOf(request)),
  });
  app.addHook('onClose', async () => {
    await store.idle();
  });
}

/** preHandler of the not-found handler: a request that matches no route counts under the API limit. */
export function notFoundRateLimit(app: FastifyInstance): preHandlerAsyncHookHandler {
  return app.rateLimit();
}

/**
 * Whether a request on the matched route `template` is outside the limit. `template` is
 * undefined when no route matched (limited). A wildcard route (the web app's fallback, `/*`)
 * is judged on the path it matched, decoded by the router: an API path is limited.
 */
export function isExempt(method: string, template: string | undefined, wildcard?: string): boolean {
  if (template === undefined) return false;
  const path = template.endsWith('*') ? `${template.slice(0, -1)}${wildcard ?? ''}` : template;
  if (!isApiPath(path)) return true;
  return EXEMPT_ROUTES.has(`${method === 'HEAD' ? 'GET' : method} ${template}`);
}

function isApiPath(path: string): boolean {
  return path === '/api' || path === '/auth' || path.startsWith('/api/') || path.startsWith('/auth/');
}

function wildcardOf(request: FastifyRequest): string | undefined {
  const params = request.params as Record<string, unknown> | undefined;
  const value = params?.['*'];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Who pays for a request, and from which budget: `read:<account>` or `account:<account>` (the
 * commands' budget; the name the counters had before reads were split off) on signed-in
 * routes with a live session; otherwise `ip:<address>`.
 *
 * A signed-in request under the shared limit whose token's claims hold is counted here, with
 * its user's read, in one statement (`countSignedIn`, rate-limit-store.ts): the key given to
 * the plugin is the budget that statement chose with a ticket for its count, which the store
 * answers instead of counting again. The session check is remembered from the same read.
 * Routes with a limit of their own, exempt routes, and requests without such a token take the
 * two steps: the session check, then the plugin's count.
 */
export async function clientKey(
  app: FastifyInstance,
  request: FastifyRequest,
  counting?: { store: RateLimitStoreHandle; windowMs: number },
): Promise<string> {
  const addressKey = `ip:${normalizeIP(request.ip)}`;
  if (!request.routeOptions.config.signedIn) return addressKey;
  const budget = isRead(request.method, request.routeOptions.url) ? 'read' : 'account';
  if (counting && sharesTheLimit(request)) {
    const read = app.readSessionClaims(request);
    if (read.refusal === undefined) {
      const counted = counting.store.countSignedIn({
        userId: read.claims.sub,
        sessionVersion: read.claims.sv,
        accountKey: `${budget}:${read.claims.sub}`,
        addressKey,
        windowMs: counting.windowMs,
      });
      app.rememberSessionCheck(
        request,
        read.claims,
        counted.then((result) => result.account),
      );
      return (await counted).key;
    }
  }
  const session = await app.checkSession(request);
  return session.user ? `${budget}:${session.user.id}` : addressKey;
}

/** Counted under the shared limit: not exempt, and no limit of the route's own. */
function sharesTheLimit(request: FastifyRequest): boolean {
  return (
    request.routeOptions.config.rateLimit === undefined &&
    !isExempt(request.method, request.routeOptions.url, wildcardOf(request))
  );
}

/** Whether a signed-in request on the matched route `template` only reads. */
export function isRead(method: string, template: string | undefined): boolean {
  if (method === 'GET' || method === 'HEAD') return true;
  return template !== undefined && READ_POSTS.has(template);
}

/** The budget of a key made by clientKey (route limits of their own set their own max). */
export function limitOf(settings: RateLimitSettings, key: string): number {
  return key.startsWith('read:') ? (settings.readMax ?? settings.max) : settings.max;
}

/** Flags routes whose preValidation is authenticate or requireAdmin (read by clientKey). */
function markSignedInRoutes(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const guards: unknown[] = [route.preValidation].flat();
    if (guards.includes(app.authenticate) || guards.includes(app.requireAdmin))
      route.config = { ...route.config, signedIn: true };
  });
}

/** Route option for authentication routes: `config: authRateLimit(settings)`. */
export function authRateLimit(settings: RateLimitSettings): { rateLimit: { max: number; timeWindow: number } } {
  return { rateLimit: { max: settings.authMax, timeWindow: settings.windowMs } };
}

/** The group every payee lookup counts in (the store's scope for it: rate-limit-store.ts). */
export const ACCOUNT_LOOKUP_GROUP = 'account-lookup';

/**
 * Route option for account lookups (`verify-account`, and `find-payee` by account number,
 * mobile number or handle): three times the authentication limit, one budget for all of them
 * (`groupId`), so a second lookup route does not double what an enumerator may try. Looking up
 * who owns a number is how numbers get enumerated; a person verifies a handful of payees, not
 * hundreds.
 */
export function accountLookupRateLimit(settings: RateLimitSettings): {
  rateLimit: { max: number; timeWindow: number; groupId: string };
} {
  return { rateLimit: { max: settings.authMax * 3, timeWindow: settings.windowMs, groupId: ACCOUNT_LOOKUP_GROUP } };
}
