/**
 * Google sign-in (@fastify/oauth2, authorization code flow with PKCE and a state cookie).
 * `/auth/google` redirects to the provider; the callback finds or creates the user (policy
 * in identity/google.ts) and sends the browser back to the web app:
 *   `/login?token=<JWT>&success=true`, `/user-not-verified` (account awaiting an admin),
 *   `/login?error=oauth_failed` or `/login?error=token_generation_failed`.
 * The token has to travel in the query (the spec's client reads it there), so these
 * replies carry `Referrer-Policy: no-referrer` and `Cache-Control: no-store`.
 * Without credentials both paths redirect to `/login?error=oauth_failed`.
 */
import oauth2, { type OAuth2Namespace } from '@fastify/oauth2';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { googleProfileSchema, signInWithGoogle, type AccountSummary, type GoogleProfile } from '../../identity/index.ts';
import type { Ledger } from '../../ledger/index.ts';
import { signSessionToken } from '../auth/authenticate.ts';
import { authRateLimit, type RateLimitSettings } from '../auth/rate-limit.ts';

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
const SIGN_IN_ROUTES: ReadonlySet<string> = new Set(['/auth/google', '/auth/google/callback']);

export async function registerOAuthRoutes(app: FastifyInstance, deps: OAuthRouteDependencies): Promise<void> {
  const web = deps.webUrl.replace(/\/+$/, '');
  const toLogin = (reply: FastifyReply, query: Record<string, string>) => reply.redirect(`${web}/login?${new URLSearchParams(query).toString()}`);
  // Decided on the matched route: the router decodes the path, so `/auth/%67oogle/callback`
  // is the callback too, and its reply carries the token just the same.
  app.addHook('onRequest', async (request, reply) => {
    if (SIGN_IN_ROUTES.has(request.routeOptions.url ?? '')) reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store');
  });

  const google = deps.google;
  if (!google) {
    app.get('/auth/google', async (_request, reply) => toLogin(reply, { error: 'oauth_failed' }));
    app.get('/auth/google/callback', async (_request, reply) => toLogin(reply, { error: 'oauth_failed' }));
    return;
  }

  const authorize = new URL(google.authorizeUrl);
  const token = new URL(google.tokenUrl);
  await app.register(oauth2, {
    name: 'googleOAuth2',
    scope: ['openid', 'email', 'profile'],
    credentials: {
      client: { id: google.clientId, secret: google.clientSecret },
      auth: { authorizeHost: authorize.origin, authorizePath: authorize.pathname, tokenHost: token.origin, tokenPath: token.pathname },
    },
    startRedirectPath: '/auth/google',
    callbackUri: google.callbackUrl,
    pkce: 'S256',
    cookie: { secure: google.callbackUrl.startsWith('https:'), sameSite: 'lax', path: '/auth/google' },
  });
  const client = app.getDecorator<OAuth2Namespace>('googleOAuth2');

  app.get('/auth/google/callback', { config: authRateLimit(deps.rateLimit) }, async (request, reply) => {
    let account: AccountSummary;
    try {
      const { token: tokens } = await client.getAccessTokenFromAuthorizationCodeFlow(request, reply);
      account = await signInWithGoogle(deps.db, deps.ledger, await fetchProfile(google.userinfoUrl, tokens.access_token));
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
    return toLogin(reply, { token: session, success: 'true' });
  });
}

async function fetchProfile(userinfoUrl: string, accessToken: string): Promise<GoogleProfile> {
  const response = await fetch(userinfoUrl, { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' }, signal: AbortSignal.timeout(USERINFO_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`userinfo answered ${response.status}`);
  return googleProfileSchema.parse(await response.json());
}
