/**
 * Google sign-in end to end against a local OpenID provider (oauth2-mock-server): the
 * redirect, the provider's authorize step, the callback with state cookie and PKCE, the
 * userinfo call, and our redirects back to the web app. Also the unconfigured case.
 */
import type { FastifyInstance } from 'fastify';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityDb } from '../identity/users.ts';
import {
  ADMIN,
  PUBLIC_URL,
  VALID_REGISTRATION,
  findSecrets,
  registeredUser,
  signIn,
  startHarness,
  type Harness,
} from '../test/app-harness.ts';
import { capturedLog } from '../test/captured-log.ts';
import { buildApp } from './app.ts';

let provider: OAuth2Server;
let h: Harness;

beforeAll(async () => {
  provider = new OAuth2Server();
  await provider.issuer.keys.generate('RS256');
  await provider.start(0, '127.0.0.1');
  const base = provider.issuer.url ?? '';
  h = await startHarness({
    google: {
      clientId: 'wallet-client',
      clientSecret: 'wallet-client-secret',
      authorizeUrl: `${base}/authorize`,
      tokenUrl: `${base}/token`,
      userinfoUrl: `${base}/userinfo`,
      callbackUrl: `${PUBLIC_URL}/auth/google/callback`,
    },
  });
});
afterAll(async () => {
  expect(findSecrets(h.replies, [])).toEqual([]);
  await h.close();
  await provider.stop();
});

interface Profile {
  sub: string;
  email: string;
  email_verified: boolean;
  given_name?: string;
  family_name?: string;
}

/** Runs the browser's part of the flow; returns our final redirect. */
async function googleSignIn(
  profile: Profile,
  options: { keepCookies?: boolean; nonce?: string; callbackPath?: string; app?: FastifyInstance } = {},
): Promise<{ location: URL; headers: Record<string, unknown>; code: string; state: string }> {
  const app = options.app ?? h.app;
  provider.service.once('beforeUserinfo', (userinfo: { body: object; statusCode: number }) => {
    userinfo.body = profile;
    userinfo.statusCode = 200;
  });
  const start = await app.inject({
    method: 'GET',
    url: options.nonce ? `/auth/google?nonce=${options.nonce}` : '/auth/google',
  });
  expect(start.statusCode).toBe(302);
  expect(start.headers['referrer-policy']).toBe('no-referrer');
  const authorizeUrl = new URL(String(start.headers.location));
  expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorizeUrl.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/auth/google/callback`);
  const setCookies = [start.headers['set-cookie'] ?? []].flat();
  const cookie = setCookies.map((entry) => entry.split(';')[0]).join('; ');

  const atProvider = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(atProvider.status).toBe(302);
  const back = new URL(atProvider.headers.get('location') ?? '');
  expect(`${back.origin}${back.pathname}`).toBe(`${PUBLIC_URL}/auth/google/callback`);

  const callback = await app.inject({
    method: 'GET',
    url: `${options.callbackPath ?? '/auth/google/callback'}${back.search}`,
    headers: options.keepCookies === false ? {} : { cookie },
  });
  expect(callback.statusCode).toBe(302);
  expect(callback.headers['referrer-policy']).toBe('no-referrer');
  return {
    location: new URL(String(callback.headers.location)),
    headers: callback.headers,
    code: back.searchParams.get('code') ?? '',
    state: back.searchParams.get('state') ?? '',
  };
}

/** An admin activates (verifies) the account. */
async function activate(userId: string): Promise<void> {
  const adminToken = await signIn(h, ADMIN.email, ADMIN.password);
  const activated = await h.call({
    method: 'POST',
    url: '/api/users/update-user-verified-status',
    headers: { authorization: `Bearer ${adminToken}` },
    payload: { selectedUser: userId, isVerified: true },
  });
  expect(activated.statusCode, activated.body).toBe(200);
}

/** A registered account linked to Google by its first Google sign-in, then verified again by an admin. */
async function linkedGoogleUser(email: string, sub: string): Promise<void> {
  const user = await registeredUser(h, email);
  const linked = await googleSignIn({ sub, email, email_verified: true });
  expect(linked.location.toString()).toBe(`${PUBLIC_URL}/user-not-verified`);
  await activate(user.id);
}

describe('Google sign-in', () => {
  it('tells the web app it is configured', async () => {
    expect((await h.call({ method: 'GET', url: '/api/config' })).json()).toEqual({
      success: true,
      message: 'ok',
      data: { googleSignIn: true, cardProvider: 'sandbox' },
    });
  });

  it('a new Google user starts unverified without a PIN, waits for the admin, then signs in with a token in the redirect', async () => {
    const profile = {
      sub: 'google-sub-new',
      email: 'Priya.G@Example.com',
      email_verified: true,
      given_name: 'Priya',
      family_name: 'Gupta',
    };
    const first = await googleSignIn(profile);
    expect(first.location.toString()).toBe(`${PUBLIC_URL}/user-not-verified`);
    const row = await identityDb(h.database.db)
      .selectFrom('identity.users')
      .selectAll()
      .where('email', '=', 'priya.g@example.com')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      auth_provider: 'google',
      is_verified: false,
      pin_hash: null,
      password_hash: null,
      first_name: 'Priya',
      last_name: 'Gupta',
      google_subject: 'google-sub-new',
    });
    const wallet = await h.database.db
      .selectFrom('ledger.accounts' as never)
      .selectAll()
      .where('id' as never, '=', row.id as never)
      .executeTakeFirst();
    expect(wallet).toBeDefined();

    const adminToken = await signIn(h, ADMIN.email, ADMIN.password);
    await h.call({
      method: 'POST',
      url: '/api/users/update-user-verified-status',
      headers: { authorization: `Bearer ${adminToken}` },
      payload: { selectedUser: row.id, isVerified: true },
    });

    const second = await googleSignIn(profile);
    expect(`${second.location.origin}${second.location.pathname}`).toBe(`${PUBLIC_URL}/login`);
    expect(second.location.searchParams.get('success')).toBe('true');
    const token = second.location.searchParams.get('token') ?? '';
    expect(second.headers['cache-control']).toBe('no-store');
    const info = await h.call({
      method: 'POST',
      url: '/api/users/get-user-info',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(info.json()).toMatchObject({ success: true, data: { _id: row.id, authProvider: 'google', pinSet: false } });
    // Google accounts have no password: the password routes say so.
    expect(
      (
        await h.call({
          method: 'POST',
          url: '/api/users/login',
          payload: { email: 'priya.g@example.com', password: 'anything-at-all' },
        })
      ).json(),
    ).toMatchObject({ code: 'OAUTH_USER' });
  });

  it("linking an existing account by e-mail hands it to the Google owner: the registrant's password, PIN and sessions end, and it goes back to admin verification (no takeover by registering someone else's address first)", async () => {
    // The attacker registered the victim's address with identity details of their choosing, set a password and a PIN, and was activated.
    const squatter = await registeredUser(h, 'victim@gmail.test');
    const victim = await googleSignIn({ sub: 'google-sub-victim', email: 'victim@gmail.test', email_verified: true });
    // The admin's verification was of the registrant's details: the Google owner waits for a new one, without a token.
    expect(victim.location.toString()).toBe(`${PUBLIC_URL}/user-not-verified`);
    // The squatter's token is refused (the account is unverified now, and later its session is over),
    // the password no longer signs in, and no PIN is left.
    const squattersCall = () =>
      h.call({
        method: 'POST',
        url: '/api/users/get-user-info',
        headers: { authorization: `Bearer ${squatter.token}` },
      });
    expect((await squattersCall()).json()).toMatchObject({ success: false, code: 'USER_NOT_VERIFIED' });
    const login = await h.call({
      method: 'POST',
      url: '/api/users/login',
      payload: { email: 'victim@gmail.test', password: VALID_REGISTRATION.password },
    });
    expect(login.json()).toMatchObject({ success: false, code: 'OAUTH_USER' });
    const row = await identityDb(h.database.db)
      .selectFrom('identity.users')
      .select(['password_hash', 'pin_hash', 'pin_verifier', 'google_subject', 'is_verified'])
      .where('id', '=', squatter.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      password_hash: null,
      pin_hash: null,
      pin_verifier: null,
      google_subject: 'google-sub-victim',
      is_verified: false,
    });
    // Until an admin has looked at the details again, every sign-in waits.
    const waiting = await googleSignIn({ sub: 'google-sub-victim', email: 'victim@gmail.test', email_verified: true });
    expect(waiting.location.toString()).toBe(`${PUBLIC_URL}/user-not-verified`);
    await activate(squatter.id);
    expect((await squattersCall()).statusCode).toBe(401);
    // The owner's next Google sign-in finds the account by subject.
    const again = await googleSignIn({ sub: 'google-sub-victim', email: 'victim@gmail.test', email_verified: true });
    expect(again.location.searchParams.get('success')).toBe('true');
    const info = await h.call({
      method: 'POST',
      url: '/api/users/get-user-info',
      headers: { authorization: `Bearer ${again.location.searchParams.get('token') ?? ''}` },
    });
    expect(info.json().data).toMatchObject({
      _id: squatter.id,
      authProvider: 'google',
      pinSet: false,
      isVerified: true,
    });
  });

  it("an admin's account is not linked to a Google account: it keeps its password, and the sign-in fails", async () => {
    const result = await googleSignIn({ sub: 'google-sub-admin', email: ADMIN.email, email_verified: true });
    expect(result.location.toString()).toBe(`${PUBLIC_URL}/login?error=oauth_failed`);
    const row = await identityDb(h.database.db)
      .selectFrom('identity.users')
      .select(['google_subject', 'auth_provider', 'is_verified'])
      .where('email', '=', ADMIN.email)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ google_subject: null, auth_provider: 'local', is_verified: true });
    expect(await signIn(h, ADMIN.email, ADMIN.password)).toBeTruthy();
  });

  it("carries the web app's nonce through the flow (login CSRF defence), and only that one", async () => {
    await linkedGoogleUser('nonce@example.com', 'google-sub-nonce');
    const withNonce = await googleSignIn(
      { sub: 'google-sub-nonce', email: 'nonce@example.com', email_verified: true },
      { nonce: 'n0nce-from-the-web-app-123' },
    );
    expect(withNonce.location.searchParams.get('nonce')).toBe('n0nce-from-the-web-app-123');
    expect(withNonce.location.searchParams.get('success')).toBe('true');
    const without = await googleSignIn({ sub: 'google-sub-nonce', email: 'nonce@example.com', email_verified: true });
    expect(without.location.searchParams.has('nonce')).toBe(false);
    const junk = await googleSignIn(
      { sub: 'google-sub-nonce', email: 'nonce@example.com', email_verified: true },
      { nonce: 'bad%20nonce' },
    );
    expect(junk.location.searchParams.has('nonce')).toBe(false);
  });

  it('refuses an e-mail the provider has not verified, and a callback without the state cookie', async () => {
    const unverified = await googleSignIn({
      sub: 'google-sub-unverified',
      email: 'unverified-at-google@example.com',
      email_verified: false,
    });
    expect(unverified.location.toString()).toBe(`${PUBLIC_URL}/login?error=oauth_failed`);
    expect(
      await identityDb(h.database.db)
        .selectFrom('identity.users')
        .select('id')
        .where('email', '=', 'unverified-at-google@example.com')
        .executeTakeFirst(),
    ).toBeUndefined();
    const forged = await googleSignIn(
      { sub: 'google-sub-x', email: 'x@example.com', email_verified: true },
      { keepCookies: false },
    );
    expect(forged.location.toString()).toBe(`${PUBLIC_URL}/login?error=oauth_failed`);
    const noUser = await identityDb(h.database.db)
      .selectFrom('identity.users')
      .select('id')
      .where('email', '=', 'x@example.com')
      .executeTakeFirst();
    expect(noUser).toBeUndefined();
  });

  it('regression: the token redirect keeps no-store and no-referrer under any spelling of its path (the hook read the raw URL)', async () => {
    await linkedGoogleUser('spelled@example.com', 'google-sub-spelled');
    // The router decodes /auth/%67oogle/%63allback to the callback, which puts a token in the redirect.
    const result = await googleSignIn(
      { sub: 'google-sub-spelled', email: 'spelled@example.com', email_verified: true },
      { callbackPath: '/auth/%67oogle/%63allback' },
    );
    expect(result.location.searchParams.get('token')).toBeTruthy();
    expect(result.headers['cache-control']).toBe('no-store');
    expect(result.headers['referrer-policy']).toBe('no-referrer');
    const start = await h.app.inject({ method: 'GET', url: '/auth/%67oogle' });
    expect(start.statusCode).toBe(302);
    expect(start.headers['cache-control']).toBe('no-store');
  });

  it("writes no session token, OAuth code or state to the log: not the callback's query, not the landing page's, under any spelling", async () => {
    await linkedGoogleUser('logged@example.com', 'google-sub-logged');
    const captured = capturedLog('api', 'info');
    // The harness's app, built again with a logger whose lines the test reads.
    const app = await buildApp({
      config: h.config,
      db: h.database.db,
      pool: h.database.pool,
      boss: h.boss,
      ledger: h.ledger,
      clock: h.clock,
      log: captured.log,
    });
    try {
      const secrets: string[] = [];
      for (const callbackPath of ['/auth/google/callback', '/%61uth/google/callback', '/auth/%67oogle/%63allback']) {
        const signedIn = await googleSignIn(
          { sub: 'google-sub-logged', email: 'logged@example.com', email_verified: true },
          { app, callbackPath, nonce: 'n0nce-of-the-logged-sign-in' },
        );
        const token = signedIn.location.searchParams.get('token') ?? '';
        expect(token.length, callbackPath).toBeGreaterThan(20);
        secrets.push(token, signedIn.code, signedIn.state);
        // The browser follows the redirect to our own /login page (the web app, or its 404 here).
        await app.inject({ method: 'GET', url: `${signedIn.location.pathname}${signedIn.location.search}` });
        await app.inject({ method: 'GET', url: `/%6cogin${signedIn.location.search}` });
        await app.inject({ method: 'GET', url: `/api/nothing-here${signedIn.location.search}` });
      }
      // A replayed callback (the state cookie is gone) fails and is logged at warn.
      const replayed = await app.inject({
        method: 'GET',
        url: `/auth/google/callback?code=replayed-code-1234567890&state=replayed-state-1234567890`,
      });
      expect(replayed.statusCode).toBe(302);
      secrets.push('replayed-code-1234567890', 'replayed-state-1234567890');
      const text = captured.text();
      for (const secret of secrets)
        expect(text.includes(secret), `the log carries ${secret.slice(0, 12)}...`).toBe(false);
      expect(text).not.toContain('token=');
      expect(text).not.toContain('code=');
      expect(text).not.toContain('state=');
      expect(text).not.toContain('nonce=');
      // The log did record these requests (so the assertions above are not vacuous).
      expect(text).toContain('"url":"/login"');
      expect(text).toContain('Google sign-in failed');
    } finally {
      await app.close();
    }
  });

  it('a suspended account is sent to /user-not-verified, without a token', async () => {
    const user = await registeredUser(h, 'suspended-google@example.com');
    const adminToken = await signIn(h, ADMIN.email, ADMIN.password);
    await h.call({
      method: 'POST',
      url: '/api/users/update-user-verified-status',
      headers: { authorization: `Bearer ${adminToken}` },
      payload: { selectedUser: user.id, isVerified: false },
    });
    const result = await googleSignIn({
      sub: 'google-sub-suspended',
      email: 'suspended-google@example.com',
      email_verified: true,
    });
    expect(result.location.toString()).toBe(`${PUBLIC_URL}/user-not-verified`);
  });
});

describe('Google sign-in not configured', () => {
  it('redirects to /login?error=oauth_failed and says so in /api/config', async () => {
    const bare = await startHarness();
    try {
      const start = await bare.app.inject({ method: 'GET', url: '/auth/google' });
      expect(start.statusCode).toBe(302);
      expect(start.headers.location).toBe(`${PUBLIC_URL}/login?error=oauth_failed`);
      expect(start.headers['referrer-policy']).toBe('no-referrer');
      const callback = await bare.app.inject({ method: 'GET', url: '/auth/google/callback?code=x&state=y' });
      expect(callback.headers.location).toBe(`${PUBLIC_URL}/login?error=oauth_failed`);
      expect((await bare.call({ method: 'GET', url: '/api/config' })).json().data).toEqual({
        googleSignIn: false,
        cardProvider: 'sandbox',
      });
    } finally {
      await bare.close();
    }
  });
});
