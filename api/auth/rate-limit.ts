/**
 * Rate limits per client IP (@fastify/rate-limit, in memory per process): the spec's 100
 * requests per 15 minutes on the API and 10 per 15 minutes on each authentication route
 * (sign-in, registration, one-time codes, PIN checks, Google callback). Both figures and
 * the window are configuration, so tests and benchmarks can raise them. A 429 goes through
 * the error handler and keeps the envelope.
 *
 * Not limited: the web app's files, the health probe, and the replay progress poll
 * (GET /api/admin/projections/:name/replay). The operations screen polls it twice a second
 * while a replay runs, which would spend the whole 100-per-15-minutes budget of the admin
 * in under a minute. The limiter runs before authentication, so the exemption is keyed on
 * the route; the route itself still requires an admin (`app.requireAdmin`) and is one
 * indexed row read.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';

export interface RateLimitSettings {
  windowMs: number;
  max: number;
  authMax: number;
}

export async function installRateLimit(app: FastifyInstance, settings: RateLimitSettings): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    max: settings.max,
    timeWindow: settings.windowMs,
    allowList: (request) => isUnlimited(request.method, request.url),
  });
}

const REPLAY_PROGRESS = /^\/api\/admin\/projections\/[a-z_]{1,40}\/replay(\?.*)?$/;

/** Requests outside the limit: the web app's files, the health probe, the replay progress poll. */
export function isUnlimited(method: string, url: string): boolean {
  // The web app's files and the health probe are not API calls.
  if (!(url.startsWith('/api/') || url.startsWith('/auth/')) || url === '/api/health') return true;
  return method === 'GET' && REPLAY_PROGRESS.test(url);
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
export function accountLookupRateLimit(settings: RateLimitSettings): { rateLimit: { max: number; timeWindow: number } } {
  return { rateLimit: { max: settings.authMax * 3, timeWindow: settings.windowMs } };
}
