/**
 * Google sign-in (@fastify/oauth2, authorization code flow with PKCE and a state cookie).
 * `/auth/google` redirects to the provider; the callback finds or creates the user (policy
 * in identity/google.ts) and sends the browser back to the web app:
 *   `/login?token=<JWT>&success=true`, `/user-not-verified` (account awaiting an admin),
 *   `/login?error=oauth_failed` or `/login?error=token_generation_failed`.
 * The token has to travel in the query (the spec's client reads it there), so these
 * replies carry `Referrer-Policy: no-referrer` and `Cache-Control: no-store`.
 * Without credentials both paths redirect to `/login?error=oauth_failed`.
 *
 * Login CSRF: anyone can send a browser to `/login?token=<their own token>&success=true` and
 * have it signed into their account (whatever the victim then deposits or enters goes to the
 * attacker). Our web app starts a sign-in with `/auth/google?nonce=<random>`, keeps the nonce
 * in sessionStorage, and accepts a token only when the redirect brings the same nonce back;
 * the server carries it in an httpOnly cookie scoped to /auth/google for the flow's life.
 */
import cookie from '@fastify/cookie';
import oauth2, { type OAuth2Namespace } from '@fastify/oauth2';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { boundedText } from '../../contracts/fields.ts';
import {
  googleProfileSchema,
  signInWithGoogle,
  type AccountSummary,
  type GoogleProfile,
} from '../../identity/index.ts';
import type { Ledger } from '../../ledger/index.ts';
import { signSessionToken } from '../auth/authenticate.ts';
import { authRateLimit, type RateLimitSettings } from '../auth/rate-limit.ts';
import { redirectReply, routeDocs } from '../docs.ts';

export interface GoogleSignInConfig {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
  callbackUrl: string;
}

export interface OAuthRouteDependencies {
  db: Kysely<unknown>;
  ledger: Ledger;
  /** Where the web app lives (its /login and /user-not-verified pages). */
  webUrl: string;
  google: GoogleSignInConfig | undefined;
  rateLimit: RateLimitSettings;
}

const USERINFO_TIMEOUT_MS = 10_000;
const NONCE_COOKIE = 'wallet_google_nonce';
/** How long a started sign-in may take at the provider before its nonce is forgotten. */
const NONCE_MAX_AGE_SECONDS = 10 * 60;
const nonceSchema = boundedText({ max: 128 }).regex(/^[A-Za-z0-9_-]{16,128}$/);
const SIGN_IN_ROUTES: ReadonlySet<string> = new Set(['/auth/google', '/auth/google/callback']);

/** The two browser routes of the flow, documented: they answer redirects, never JSON. */
const START_DOCS = routeDocs({
  summary: 'Start Google sign-in (redirects to Google)',
  description:
    'Our web app passes `nonce` and accepts the returned token only with the same nonce (login CSRF). Without Google configured: redirects to /login?error=oauth_failed.',
  querystring: z.object({ nonce: nonceSchema.optional() }),
  replies: { 302: redirectReply("To Google's consent screen, or to /login?error=oauth_failed") },
});
const CALLBACK_DOCS = routeDocs({
  summary: "Google's return to us (redirects to the web app)",
  description:
    'To /login?token=<JWT>&success=true[&nonce=...], /user-not-verified, /login?error=oauth_failed or /login?error=token_generation_failed.',
  querystring: z.object({ code: z.string().optional(), state: z.string().optional() }),
  replies: { 302: redirectReply('To the web app, with the session token or an error') },
});

export async function registerOAuthRoutes(app: FastifyInstance, deps: OAuthRouteDependencies): Promise<void> {
  const web = deps.webUrl.replace(/(?<!\/)\/+$/, '');
  const toLogin = (reply: FastifyReply, query: Record<string, string>) =>
    reply.redirect(`${web}/login?${new URLSearchParams(query).toString()}`);
  // Decided on the matched route: the router decodes the path, so `/auth/%67oogle/callback`
  // is the callback too, and its reply carries the token just the same.
  app.addHook('onRequest', async (request, reply) => {
    if (SIGN_IN_ROUTES.has(request.routeOptions.url ?? ''))
      reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store');
  });

  const google = deps.google;
  if (!google) {
    app.get('/auth/google', START_DOCS, async (_request, reply) => toLogin(reply, { error: 'oauth_failed' }));
    app.get('/auth/google/callback', CALLBACK_DOCS, async (_request, reply) =>
      toLogin(reply, { error: 'oauth_failed' }),
    );
    return;
  }

  const authorize = new URL(google.authorizeUrl);
  const token = new URL(google.tokenUrl);
  const secureCookies = google.callbackUrl.startsWith('https:');
  const nonceCookie = { path: '/auth/google', httpOnly: true, sameSite: 'lax', secure: secureCookies } as const;
  await app.register(cookie);
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.url !== '/auth/google') return;
    const nonce = nonceSchema.safeParse((request.query as { nonce?: unknown } | undefined)?.nonce);
    if (nonce.success) reply.setCookie(NONCE_COOKIE, nonce.data, { ...nonceCookie, maxAge: NONCE_MAX_AGE_SECONDS });
    else reply.clearCookie(NONCE_COOKIE, nonceCookie);
  });
  await app.register(oauth2, {
    name: 'googleOAuth2',
    scope: ['openid', 'email', 'profile'],
    credentials: {
      client: { id: google.clientId, secret: google.clientSecret },
      auth: {
        authorizeHost: authorize.origin,
        authorizePath: authorize.pathname,
        tokenHost: token.origin,
        tokenPath: token.pathname,
      },
    },
    startRedirectPath: '/auth/google',
    schema: START_DOCS.schema,
    callbackUri: google.callbackUrl,
    pkce: 'S256',
    cookie: { secure: secureCookies, sameSite: 'lax', path: '/auth/google' },
  });
  const client = app.getDecorator<OAuth2Namespace>('googleOAuth2');

  app.get(
    '/auth/google/callback',
    { config: authRateLimit(deps.rateLimit), ...CALLBACK_DOCS },
    async (request, reply) => {
      let account: AccountSummary;
      try {
        const { token: tokens } = await client.getAccessTokenFromAuthorizationCodeFlow(request, reply);
        account = await signInWithGoogle(
          deps.db,
          deps.ledger,
          await fetchProfile(google.userinfoUrl, tokens.access_token),
        );
      } catch (error) {
        request.log.warn({ reason: error instanceof Error ? error.message : 'unknown' }, 'Google sign-in failed');
        return toLogin(reply, { error: 'oauth_failed' });
      }
      if (!account.isVerified) return reply.redirect(`${web}/user-not-verified`);
      let session: string;
      try {
        session = signSessionToken(app, account);
      } catch {
        return toLogin(reply, { error: 'token_generation_failed' });
      }
      return toLogin(reply, { token: session, success: 'true', ...takeNonce(request, reply, nonceCookie) });
    },
  );
}

/** The nonce the browser started this sign-in with, once (the cookie is cleared). */
function takeNonce(request: FastifyRequest, reply: FastifyReply, options: { path: string }): { nonce?: string } {
  const nonce = nonceSchema.safeParse(request.cookies[NONCE_COOKIE]);
  reply.clearCookie(NONCE_COOKIE, options);
  return nonce.success ? { nonce: nonce.data } : {};
}

async function fetchProfile(userinfoUrl: string, accessToken: string): Promise<GoogleProfile> {
  const response = await fetch(userinfoUrl, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    signal: AbortSignal.timeout(USERINFO_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`userinfo answered ${response.status}`);
  return googleProfileSchema.parse(await response.json());
}
