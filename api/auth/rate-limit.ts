/**
 * Rate limits per client IP (@fastify/rate-limit, in memory per process): the spec's 100
 * requests per 15 minutes on the API and 10 per 15 minutes on each authentication route
 * (sign-in, registration, one-time codes, PIN checks, Google callback). Both figures and
 * the window are configuration, so tests and benchmarks can raise them. A 429 goes through
 * the error handler and keeps the envelope.
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
    // The web app's files and the health probe are not API calls.
    allowList: (request) => !(request.url.startsWith('/api/') || request.url.startsWith('/auth/')) || request.url === '/api/health',
  });
}

/** Route option for authentication routes: `config: authRateLimit(settings)`. */
export function authRateLimit(settings: RateLimitSettings): { rateLimit: { max: number; timeWindow: number } } {
  return { rateLimit: { max: settings.authMax, timeWindow: settings.windowMs } };
}
