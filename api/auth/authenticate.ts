/**
 * Authentication for every route that needs a signed-in user: a 24 h bearer JWT
 * (@fastify/jwt, HS256) whose subject is the user id, re-checked against the database on
 * every call, so a suspended account or a token issued before a password reset is refused
 * at once, not when the token expires.
 *
 * For route files: `preValidation: app.authenticate` (or `app.requireAdmin`), then
 * `requireUser(request)` / `requireAdmin(request)` return the checked user. The guard runs
 * before the request's input is validated (api/request-validation.ts): a request without a
 * session is refused as such, whatever it sends.
 *
 * The check runs once per request (`app.checkSession`, remembered on the request): the rate
 * limiter asks it first, to count a live session under its account and anything else under
 * the caller's address, and the guard then reuses the same answer (one database read).
 */
import jwt from '@fastify/jwt';
import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { findAccount, type AccountSummary } from '../../identity/index.ts';
import { ApiError } from '../errors.ts';

/**
 * Token lifetimes: "remember me" keeps the session for the spec's 24 hours, the most a
 * token lives (a money app's token sits in localStorage); without it, 12 hours.
 */
export const TOKEN_TTL = { standard: '12h', rememberMe: '24h' } as const;

export type AuthenticatedUser = AccountSummary;

declare module 'fastify' {
  interface FastifyInstance {
    /** preValidation: a signed-in, existing, verified user (401/403 otherwise). */
    authenticate: preValidationAsyncHookHandler;
    /** preValidation: as authenticate, and an admin (403 otherwise). */
    requireAdmin: preValidationAsyncHookHandler;
    /** The check behind both, for requireUser(request). */
    loadIdentityUser(request: FastifyRequest): Promise<AuthenticatedUser>;
    /** The session check of the request's bearer token, run once per request and remembered. */
    checkSession(request: FastifyRequest): Promise<SessionCheck>;
  }
  interface FastifyRequest {
    identityUser: AuthenticatedUser | null;
  }
}

/**
 * The claims a session token must carry. `exp` (seconds since the epoch, set by every sign:
 * installAuth's default and signSessionToken) is checked by jwtVerify and carried on the
 * session check, so what outlives the request - a live updates stream - ends with the token.
 */
const tokenClaims = z.object({ sub: z.string().min(1).max(64), sv: z.number().int(), exp: z.number() });

/**
 * A request's session: the user of a live session, or why there is none - no bearer token
 * (`unauthenticated`), a bad signature, an expiry, an unknown user or a session ended by a
 * sign-out, password reset or suspension's version bump (`token_invalid`), or an account not
 * (or no longer) verified (`USER_NOT_VERIFIED`).
 */
export type SessionCheck =
  | { user: AuthenticatedUser; expiresAt: Date; refusal?: undefined }
  | { user?: undefined; expiresAt?: undefined; refusal: 'unauthenticated' | 'token_invalid' | 'USER_NOT_VERIFIED' };

const sessionChecks = new WeakMap<FastifyRequest, Promise<SessionCheck>>();

export interface AuthOptions {
  db: Kysely<unknown>;
  jwtSecret: string;
}

export async function installAuth(app: FastifyInstance, options: AuthOptions): Promise<void> {
  await app.register(jwt, {
    secret: options.jwtSecret,
    sign: { algorithm: 'HS256', expiresIn: TOKEN_TTL.standard },
    verify: { algorithms: ['HS256'] },
  });
  app.decorateRequest('identityUser', null);
  app.decorate('checkSession', (request: FastifyRequest) => checkSession(request, options.db));
  app.decorate('loadIdentityUser', (request: FastifyRequest) => loadUser(request, options.db));
  app.decorate('authenticate', async function authenticate(request: FastifyRequest) {
    await loadUser(request, options.db);
  });
  app.decorate('requireAdmin', async function requireAdminHook(request: FastifyRequest) {
    const user = await loadUser(request, options.db);
    if (!user.isAdmin) throw new ApiError('admin_only');
  });
}

/** Signs a session token for a user that has just proved who it is. */
export function signSessionToken(
  app: FastifyInstance,
  user: Pick<AccountSummary, 'id' | 'sessionVersion'>,
  options: { rememberMe?: boolean } = {},
): string {
  return app.jwt.sign(
    { sub: user.id, sv: user.sessionVersion },
    { expiresIn: options.rememberMe ? TOKEN_TTL.rememberMe : TOKEN_TTL.standard },
  );
}

/** The request's session check, run at most once per request (the limiter's and the guard's). */
function checkSession(request: FastifyRequest, db: Kysely<unknown>): Promise<SessionCheck> {
  let check = sessionChecks.get(request);
  if (!check) {
    check = runSessionCheck(request, db);
    sessionChecks.set(request, check);
  }
  return check;
}

async function runSessionCheck(request: FastifyRequest, db: Kysely<unknown>): Promise<SessionCheck> {
  const header = request.headers.authorization;
  if (!header || !/^Bearer\s+\S+$/i.test(header)) return { refusal: 'unauthenticated' };
  let claims: z.infer<typeof tokenClaims>;
  try {
    claims = tokenClaims.parse(await request.jwtVerify());
  } catch {
    return { refusal: 'token_invalid' };
  }
  const user = await findAccount(db, claims.sub);
  if (!user) return { refusal: 'token_invalid' };
  // Suspended (or never verified): said plainly, before the session check, so the client
  // can tell the user why.
  if (!user.isVerified) return { refusal: 'USER_NOT_VERIFIED' };
  // A token from before a sign-out, a password reset or a suspension: that session is over.
  if (user.sessionVersion !== claims.sv) return { refusal: 'token_invalid' };
  return { user, expiresAt: new Date(claims.exp * 1000) };
}

async function loadUser(request: FastifyRequest, db: Kysely<unknown>): Promise<AuthenticatedUser> {
  if (request.identityUser) return request.identityUser;
  const session = await checkSession(request, db);
  if (session.refusal !== undefined) throw new ApiError(session.refusal);
  request.identityUser = session.user;
  return session.user;
}

/** The signed-in user of a request that passed `app.authenticate` (checks now if it did not). */
export async function requireUser(request: FastifyRequest): Promise<AuthenticatedUser> {
  return request.identityUser ?? request.server.loadIdentityUser(request);
}

/**
 * The signed-in user of a request and when its token expires (its `exp`): for what outlives
 * the request (a live updates stream), which must end with the token. The same remembered
 * session check as the guard's (no second read).
 */
export async function requireSession(request: FastifyRequest): Promise<{ user: AuthenticatedUser; expiresAt: Date }> {
  const session = await request.server.checkSession(request);
  if (session.refusal !== undefined) throw new ApiError(session.refusal);
  request.identityUser ??= session.user;
  return session;
}

export async function requireAdmin(request: FastifyRequest): Promise<AuthenticatedUser> {
  const user = await requireUser(request);
  if (!user.isAdmin) throw new ApiError('admin_only');
  return user;
}
