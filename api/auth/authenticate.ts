/**
 * Authentication for every route that needs a signed-in user: a 24 h bearer JWT
 * (@fastify/jwt, HS256) whose subject is the user id, re-checked against the database on
 * every call, so a suspended account or a token issued before a password reset is refused
 * at once, not when the token expires.
 *
 * For route files: `preHandler: app.authenticate` (or `app.requireAdmin`), then
 * `requireUser(request)` / `requireAdmin(request)` return the checked user.
 */
import jwt from '@fastify/jwt';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
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
    /** preHandler: a signed-in, existing, verified user (401/403 otherwise). */
    authenticate: preHandlerAsyncHookHandler;
    /** preHandler: as authenticate, and an admin (403 otherwise). */
    requireAdmin: preHandlerAsyncHookHandler;
    /** The check behind both, for requireUser(request). */
    loadIdentityUser(request: FastifyRequest): Promise<AuthenticatedUser>;
  }
  interface FastifyRequest {
    identityUser: AuthenticatedUser | null;
  }
}

const tokenClaims = z.object({ sub: z.string().min(1).max(64), sv: z.number().int() });

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

/**
 * The user id of a bearer token whose signature and expiry are valid, or null: no database
 * read, so the rate limiter (which runs before authentication) can count a signed-in caller
 * by account. Whether that account may still act is decided later, by `authenticate`.
 */
export function verifiedSubject(app: FastifyInstance, authorization: string | undefined): string | null {
  const token = authorization === undefined ? undefined : /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
  if (!token) return null;
  try {
    const claims = tokenClaims.safeParse(app.jwt.verify(token));
    return claims.success ? claims.data.sub : null;
  } catch {
    return null;
  }
}

async function loadUser(request: FastifyRequest, db: Kysely<unknown>): Promise<AuthenticatedUser> {
  if (request.identityUser) return request.identityUser;
  const header = request.headers.authorization;
  if (!header || !/^Bearer\s+\S+$/i.test(header)) throw new ApiError('unauthenticated');
  let claims: z.infer<typeof tokenClaims>;
  try {
    claims = tokenClaims.parse(await request.jwtVerify());
  } catch {
    throw new ApiError('token_invalid');
  }
  const user = await findAccount(db, claims.sub);
  if (!user) throw new ApiError('token_invalid');
  // Suspended (or never verified): said plainly, before the session check, so the client
  // can tell the user why.
  if (!user.isVerified) throw new ApiError('USER_NOT_VERIFIED');
  // A token from before a password reset or a suspension: that session is over.
  if (user.sessionVersion !== claims.sv) throw new ApiError('token_invalid');
  request.identityUser = user;
  return user;
}

/** The signed-in user of a request that passed `app.authenticate` (checks now if it did not). */
export async function requireUser(request: FastifyRequest): Promise<AuthenticatedUser> {
  return request.identityUser ?? request.server.loadIdentityUser(request);
}

export async function requireAdmin(request: FastifyRequest): Promise<AuthenticatedUser> {
  const user = await requireUser(request);
  if (!user.isAdmin) throw new ApiError('admin_only');
  return user;
}
