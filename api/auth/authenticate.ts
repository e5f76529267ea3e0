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
 * the caller's address, and the guard then reuses the same answer (one database read). Under
 * the shared limit the limiter reads the user itself, in the statement that counts the request
 * (`rememberSessionCheck`; api/auth/rate-limit.ts), and the check is judged from that row. The
 * reads of a process's concurrent requests are gathered by the ledger's group-commit policy
 * (`createBatcher`): one statement reads the users of all the requests that arrived while a
 * read was on its way - a statement per request was one of the round trips each payment queued
 * behind on the API's one thread (issue 40). Each read still starts after its request arrived.
 * A token's signature and expiry are checked by fast-jwt's verifier with its cache of verified
 * tokens (keyed by a hash of the token, each kept no longer than the token's own expiry): a
 * signed-in client sends the same token with every request, and the plugin's per-request HMAC,
 * decoding and option merging were ~5% of the API's busy time under bench B2. The user is
 * still read on every request, which is what ends a session early.
 */
import jwt from '@fastify/jwt';
import { createVerifier } from 'fast-jwt';
import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { findAccounts, type AccountSummary } from '../../identity/index.ts';
import { createBatcher, READ_BATCHING } from '../../ledger/index.ts';
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
    /**
     * The claims of the request's bearer token if its signature and expiry hold (no database
     * read), or why not. With `rememberSessionCheck`, for a caller that reads the user itself.
     */
    readSessionClaims(request: FastifyRequest): SessionClaims;
    /**
     * Remembers the request's session check as judged from `account`, the user of
     * `claims.sub` read by the caller (the rate limiter's count reads it in the same
     * statement); the guard then reads nothing. A check that has run already is kept.
     */
    rememberSessionCheck(
      request: FastifyRequest,
      claims: TokenClaims,
      account: Promise<AccountSummary | undefined>,
    ): void;
  }
  interface FastifyRequest {
    identityUser: AuthenticatedUser | null;
  }
}

/**
 * The claims a session token must carry. `exp` (seconds since the epoch, set by every sign:
 * installAuth's default and signSessionToken) is checked by the verifier and carried on the
 * session check, so what outlives the request - a live updates stream - ends with the token.
 */
const tokenClaims = z.object({ sub: z.string().min(1).max(64), sv: z.number().int(), exp: z.number() });

export type TokenClaims = z.infer<typeof tokenClaims>;

/** A bearer token's claims, or why it has none that hold (no token; bad signature, expired, malformed). */
export type SessionClaims =
  { claims: TokenClaims; refusal?: undefined } | { refusal: 'unauthenticated' | 'token_invalid' };

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

/** Reads a user by id, gathered with the process's other session reads. */
type LoadAccount = (userId: string) => Promise<AccountSummary | undefined>;

/** What a session check needs: the token's verifier (throws on a bad or expired token) and the user's read. */
interface SessionChecker {
  verifyToken: (token: string) => unknown;
  loadAccount: LoadAccount;
}

/** `Bearer <token>`, the scheme in any case (as the JWT plugin read it). */
const BEARER = /^Bearer\s+(\S+)$/i;

/** Verified tokens remembered per process (fast-jwt's LRU cache): ~300 bytes each. */
const VERIFIED_TOKENS_CACHED = 10_000;

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
  const verifyToken = createVerifier({ key: options.jwtSecret, algorithms: ['HS256'], cache: VERIFIED_TOKENS_CACHED });
  const loadAccount: LoadAccount = createBatcher(READ_BATCHING, async (userIds: readonly string[]) => {
    const found = await findAccounts(options.db, userIds);
    return userIds.map((id) => ({ ok: true as const, value: found.get(id) }));
  });
  app.decorateRequest('identityUser', null);
  const check: SessionChecker = { verifyToken, loadAccount };
  app.decorate('checkSession', (request: FastifyRequest) => checkSession(request, check));
  app.decorate('readSessionClaims', (request: FastifyRequest) => readClaims(request, verifyToken));
  app.decorate(
    'rememberSessionCheck',
    (request: FastifyRequest, claims: TokenClaims, account: Promise<AccountSummary | undefined>) => {
      if (!sessionChecks.has(request))
        sessionChecks.set(request, remembered(account.then((user) => judgeSession(user, claims))));
    },
  );
  app.decorate('loadIdentityUser', (request: FastifyRequest) => loadUser(request, check));
  app.decorate('authenticate', async function authenticate(request: FastifyRequest) {
    await loadUser(request, check);
  });
  app.decorate('requireAdmin', async function requireAdminHook(request: FastifyRequest) {
    const user = await loadUser(request, check);
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
function checkSession(request: FastifyRequest, checker: SessionChecker): Promise<SessionCheck> {
  let check = sessionChecks.get(request);
  if (!check) {
    check = runSessionCheck(request, checker);
    sessionChecks.set(request, check);
  }
  return check;
}

async function runSessionCheck(request: FastifyRequest, checker: SessionChecker): Promise<SessionCheck> {
  const read = readClaims(request, checker.verifyToken);
  if (read.refusal !== undefined) return { refusal: read.refusal };
  return judgeSession(await checker.loadAccount(read.claims.sub), read.claims);
}

function readClaims(request: FastifyRequest, verifyToken: (token: string) => unknown): SessionClaims {
  const header = request.headers.authorization;
  const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
  if (token === undefined) return { refusal: 'unauthenticated' };
  try {
    return { claims: tokenClaims.parse(verifyToken(token)) };
  } catch {
    return { refusal: 'token_invalid' };
  }
}

/**
 * The session of a token whose claims hold, given its user as read now. The rate limiter's
 * count keys a request by account exactly when this gives a user (`countSignedInRequests`,
 * api/auth/rate-limit-store.ts, says it again in SQL).
 */
function judgeSession(user: AccountSummary | undefined, claims: TokenClaims): SessionCheck {
  if (!user) return { refusal: 'token_invalid' };
  // Suspended (or never verified): said plainly, before the session check, so the client
  // can tell the user why.
  if (!user.isVerified) return { refusal: 'USER_NOT_VERIFIED' };
  // A token from before a sign-out, a password reset or a suspension: that session is over.
  if (user.sessionVersion !== claims.sv) return { refusal: 'token_invalid' };
  return { user, expiresAt: new Date(claims.exp * 1000) };
}

/**
 * A remembered check that nobody awaited must not end the process when its read fails (the
 * limiter answers that request 503 first): the rejection is marked handled, and still reaches
 * whoever awaits the promise.
 */
function remembered(check: Promise<SessionCheck>): Promise<SessionCheck> {
  check.catch(() => undefined);
  return check;
}

async function loadUser(request: FastifyRequest, checker: SessionChecker): Promise<AuthenticatedUser> {
  if (request.identityUser) return request.identityUser;
  const session = await checkSession(request, checker);
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
