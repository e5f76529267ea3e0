/**
 * The access matrix: every /api/users route (and /auth/google) x every kind of caller, with
 * the status each cell must get. Public routes must not care about the token; signed-in
 * routes refuse anonymous, expired, tampered and suspended callers; admin routes refuse
 * everyone but the admin.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  TEST_SECRET,
  findSecrets,
  registeredUser,
  signIn,
  startHarness,
  type Harness,
} from '../test/app-harness.ts';

const CALLERS = ['anonymous', 'user', 'anotherUser', 'admin', 'suspended', 'expired', 'tampered'] as const;
type Caller = (typeof CALLERS)[number];

let h: Harness;
const headers: Partial<Record<Caller, Record<string, string>>> = {};
const ids: Partial<Record<Caller | 'target', string>> = {};

/** An HS256 token signed with the server secret but already expired. */
function expiredToken(userId: string): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: userId, sv: 1, iat: now - 25 * 3600, exp: now - 3600 })}`;
  return `${unsigned}.${createHmac('sha256', TEST_SECRET).update(unsigned).digest('base64url')}`;
}

/** A valid token with its payload swapped for another user's id (signature no longer matches). */
function tamperedToken(token: string, otherUserId: string): string {
  const [header, payload, signature] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'));
  return `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: otherUserId })).toString('base64url')}.${signature}`;
}

beforeAll(async () => {
  h = await startHarness();
  const user = await registeredUser(h, 'matrix-user@example.com');
  const another = await registeredUser(h, 'matrix-another@example.com');
  const suspended = await registeredUser(h, 'matrix-suspended@example.com');
  const target = await registeredUser(h, 'matrix-target@example.com', { activate: false });
  const adminToken = await signIn(h, ADMIN.email, ADMIN.password);
  await h.call({
    method: 'POST',
    url: '/api/users/update-user-verified-status',
    headers: { authorization: `Bearer ${adminToken}` },
    payload: { selectedUser: suspended.id, isVerified: false },
  });
  Object.assign(ids, { user: user.id, anotherUser: another.id, suspended: suspended.id, target: target.id });
  headers.anonymous = {};
  headers.user = { authorization: `Bearer ${user.token}` };
  headers.anotherUser = { authorization: `Bearer ${another.token}` };
  headers.admin = { authorization: `Bearer ${adminToken}` };
  headers.suspended = { authorization: `Bearer ${suspended.token}` };
  headers.expired = { authorization: `Bearer ${expiredToken(user.id)}` };
  headers.tampered = { authorization: `Bearer ${tamperedToken(user.token ?? '', another.id)}` };
});
afterAll(async () => {
  expect(findSecrets(h.replies, [])).toEqual([]);
  await h.close();
});

const SIGNED_IN = {
  anonymous: 401,
  user: 200,
  anotherUser: 200,
  admin: 200,
  suspended: 403,
  expired: 401,
  tampered: 401,
};
const ADMIN_ONLY = {
  anonymous: 401,
  user: 403,
  anotherUser: 403,
  admin: 200,
  suspended: 403,
  expired: 401,
  tampered: 401,
};
const PIN_ROUTE = { ...SIGNED_IN, admin: 400 }; // the admin has no PIN: PIN_NOT_SET
const everyone = (status: number): Record<Caller, number> => ({
  anonymous: status,
  user: status,
  anotherUser: status,
  admin: status,
  suspended: status,
  expired: status,
  tampered: status,
});

let sequence = 0;
const fresh = () => `matrix-fresh-${++sequence}@example.com`;

interface Row {
  method: 'GET' | 'POST';
  url: string;
  payload?: () => object;
  expected: Record<Caller, number>;
}

const MATRIX: Row[] = [
  {
    method: 'POST',
    url: '/api/users/register',
    payload: () => ({
      firstName: 'M',
      lastName: 'X',
      email: fresh(),
      contactNo: '9876543210',
      identification: 'PAN Card',
      identificationNumber: 'ABCDE1234F',
      address: 'Somewhere',
      password: 'password-123',
      transactionPin: '4321',
    }),
    expected: everyone(201),
  },
  {
    method: 'POST',
    url: '/api/users/login',
    payload: () => ({ email: 'matrix-user@example.com', password: 'not-the-password' }),
    expected: everyone(401),
  },
  { method: 'POST', url: '/api/users/get-user-info', expected: SIGNED_IN },
  { method: 'GET', url: '/api/users/get-all-users', expected: ADMIN_ONLY },
  {
    method: 'POST',
    url: '/api/users/update-user-verified-status',
    payload: () => ({ selectedUser: ids.target, isVerified: true }),
    expected: ADMIN_ONLY,
  },
  { method: 'GET', url: '/api/users/generate-qr?url[userId]=whatever', expected: SIGNED_IN },
  {
    method: 'POST',
    url: '/api/users/verify-transaction-pin',
    payload: () => ({ transactionPin: '1234' }),
    expected: PIN_ROUTE,
  },
  {
    method: 'POST',
    url: '/api/users/update-transaction-pin',
    payload: () => ({ currentPin: '1234', newPin: '1234' }),
    expected: PIN_ROUTE,
  },
  {
    method: 'POST',
    url: '/api/users/send-password-reset-otp',
    payload: () => ({ email: fresh() }),
    expected: everyone(200),
  },
  {
    method: 'POST',
    url: '/api/users/resend-password-reset-otp',
    payload: () => ({ email: fresh() }),
    expected: everyone(200),
  },
  {
    method: 'POST',
    url: '/api/users/verify-password-reset-otp',
    payload: () => ({ email: fresh(), otp: '123456' }),
    expected: everyone(400),
  },
  {
    method: 'POST',
    url: '/api/users/reset-password',
    payload: () => ({ email: fresh(), otp: '123456', newPassword: 'new-password' }),
    expected: everyone(400),
  },
  {
    method: 'POST',
    url: '/api/users/send-pin-reset-otp',
    payload: () => ({ email: fresh() }),
    expected: everyone(200),
  },
  {
    method: 'POST',
    url: '/api/users/resend-pin-reset-otp',
    payload: () => ({ email: fresh() }),
    expected: everyone(200),
  },
  {
    method: 'POST',
    url: '/api/users/verify-pin-reset-otp',
    payload: () => ({ email: fresh(), otp: '123456' }),
    expected: everyone(400),
  },
  {
    method: 'POST',
    url: '/api/users/reset-transaction-pin',
    payload: () => ({ email: fresh(), otp: '123456', newPin: '4321' }),
    expected: everyone(400),
  },
  { method: 'GET', url: '/auth/google', expected: everyone(302) },
  { method: 'GET', url: '/api/config', expected: everyone(200) },
];

describe('access matrix', () => {
  it('gives every route x caller cell its expected status, always with the envelope', async () => {
    const actual: Record<string, Record<Caller, number>> = {};
    const expected: Record<string, Record<Caller, number>> = {};
    for (const row of MATRIX) {
      const key = `${row.method} ${row.url}`;
      expected[key] = row.expected;
      actual[key] = everyone(0);
      for (const caller of CALLERS) {
        const response = await h.call({
          method: row.method,
          url: row.url,
          headers: { ...headers[caller] },
          ...(row.payload ? { payload: row.payload() } : {}),
        });
        actual[key][caller] = response.statusCode;
        if (response.statusCode !== 302) {
          const body = response.json();
          expect(typeof body.success, key).toBe('boolean');
          expect(body.success, `${key} ${caller}`).toBe(response.statusCode < 400);
          expect(typeof body.message).toBe('string');
        }
      }
    }
    expect(actual).toEqual(expected);
  });

  it('the user routes answer for the caller only: each signed-in user gets its own record and QR', async () => {
    for (const caller of ['user', 'anotherUser'] as const) {
      const info = await h.call({ method: 'POST', url: '/api/users/get-user-info', headers: headers[caller] ?? {} });
      expect((info.json().data as { _id: string })._id).toBe(ids[caller]);
    }
  });

  it('names the reason: unauthenticated, token_invalid, USER_NOT_VERIFIED, admin_only', async () => {
    const codeFor = async (caller: Caller, url: string, method: 'GET' | 'POST' = 'POST') =>
      (await h.call({ method, url, headers: headers[caller] ?? {} })).json().code;
    expect(await codeFor('anonymous', '/api/users/get-user-info')).toBe('unauthenticated');
    expect(await codeFor('expired', '/api/users/get-user-info')).toBe('token_invalid');
    expect(await codeFor('tampered', '/api/users/get-user-info')).toBe('token_invalid');
    expect(await codeFor('suspended', '/api/users/get-user-info')).toBe('USER_NOT_VERIFIED');
    expect(await codeFor('user', '/api/users/get-all-users', 'GET')).toBe('admin_only');
  });
});
