/**
 * Rate limits (@fastify/rate-limit over the Postgres store of rate-limit-store.ts, shared by
 * every API process): the spec's 100 requests per 15 minutes on the API and 10 per 15 minutes
 * on each authentication route (sign-in, registration, one-time codes, PIN checks, Google
 * callback). Both figures and the window are configuration. A 429 goes through the error
 * handler and keeps the envelope.
 *
 * Who is counted: on signed-in routes (those guarded by `app.authenticate` or
 * `app.requireAdmin`), the account of a live session, so people behind one NAT or proxy do not
 * share a budget; everywhere else, and for a token that fails the session check (missing, bad
 * signature, expired, unknown user, suspended, or ended by a sign-out or password reset), the
 * client IP (IPv6 by /64), which is the proxy's client when TRUST_PROXY_HOPS is set. A leaked
 * old token therefore spends its holder's address's budget, never its owner's. The session
 * check is the guard's own (`app.checkSession`, remembered on the request): a signed-in
 * request still costs one read of its user, whether the limiter or the guard asks first.
 *
 * What is counted is decided on the route the router matched (`routeOptions.url`), never on
 * the raw URL: the router decodes the path, so `/%61pi/users/login` runs the sign-in handler
 * and must count as sign-in. Requests that match no route are counted under the API limit by
 * the not-found handler's preHandler (`notFoundRateLimit`).
 *
 * Not limited: the web app's files and client routes, the health probe, /metrics (token or
 * loopback) and the API docs (/api/docs: static files and a prebuilt document, registered
 * before the limiter), the card provider's webhook (it sends from a few addresses, and its
 * signature check is its protection), and the replay progress poll (GET
 * /api/admin/projections/:name/replay), which the operations screen polls twice a second while
 * a replay runs and which would spend the admin's whole budget in under a minute; it still
 * requires an admin and is one indexed row read.
 */
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler, RouteOptions } from 'fastify';
import type { Kysely } from 'kysely';
import { CARD_WEBHOOK_PATH } from '../../contracts/transactions.ts';
import { createPostgresRateLimitStore } from './rate-limit-store.ts';

export interface RateLimitSettings {
  windowMs: number;
  max: number;
  authMax: number;
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

/** Installs the limiter; needs installAuth first (sessions are checked to key by account). */
export async function installRateLimit(
  app: FastifyInstance,
  options: { settings: RateLimitSettings; db: Kysely<unknown> },
): Promise<void> {
  markSignedInRoutes(app);
  const store = createPostgresRateLimitStore(options.db);
  await app.register(rateLimit, {
    global: true,
    max: options.settings.max,
    timeWindow: options.settings.windowMs,
    store: store.Store,
    keyGenerator: (request) => clientKey(app, request),
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

/** The account of a live session on signed-in routes; otherwise the client IP. */
export async function clientKey(app: FastifyInstance, request: FastifyRequest): Promise<string> {
  if (request.routeOptions.config.signedIn) {
    const session = await app.checkSession(request);
    if (session.user) return `account:${session.user.id}`;
  }
  return `ip:${normalizeIP(request.ip)}`;
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

/**
 * Route option for account lookups (`verify-account`): three times the authentication
 * limit. Looking up who owns an account number is how numbers get enumerated; a person
 * verifies a handful of payees, not hundreds.
 */
export function accountLookupRateLimit(settings: RateLimitSettings): {
  rateLimit: { max: number; timeWindow: number };
} {
  return { rateLimit: { max: settings.authMax * 3, timeWindow: settings.windowMs } };
}
