/**
 * The /api/users contract end to end over HTTP on a real Postgres, with real SMTP capture:
 * registration, activation (and its e-mail), sign-in, the session check, suspension,
 * password and PIN reset by e-mailed code, the PIN guard, QR, CORS. Every JSON reply of the
 * file is scanned for secrets at the end.
 */
import jsQRModule from 'jsqr';
import bcrypt from 'bcryptjs';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountFromQrText } from '../contracts/qr.ts';
import { identityDb } from '../identity/users.ts';
import {
  ADMIN,
  PUBLIC_URL,
  VALID_REGISTRATION,
  codeFrom,
  findSecrets,
  registeredUser,
  signIn,
  startHarness,
  type Harness,
} from '../test/app-harness.ts';

// jsqr is CommonJS with a `default` export: under nodenext the default import is module.exports.
const jsQR = jsQRModule.default;
let h: Harness;
const codesSeen: string[] = [];
const bearer = (token: string | undefined) => ({ authorization: `Bearer ${token ?? ''}` });

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  expect(findSecrets(h.replies, codesSeen)).toEqual([]);
  expect(h.replies.length).toBeGreaterThan(50);
  await h.close();
});

function claimsOf(token: string): { sub: string; exp: number; iat: number } {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
}

async function receiveCode(email: string): Promise<string> {
  const code = codeFrom(await h.waitForMail(email, (mail) => /reset code/.test(mail.raw)));
  codesSeen.push(code);
  return code;
}

describe('registration and activation', () => {
  it('registers an unverified user with a wallet, ignores extra fields, activates by admin with an e-mail, then signs in', async () => {
    const email = 'New.User@Example.com';
    const response = await h.call({
      method: 'POST',
      url: '/api/users/register',
      payload: { ...VALID_REGISTRATION, email, isAdmin: true, isVerified: true, balance: 5000, _id: 'chosen-id' },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ success: true });

    const row = await identityDb(h.database.db)
      .selectFrom('identity.users')
      .selectAll()
      .where('email', '=', 'new.user@example.com')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ is_admin: false, is_verified: false, auth_provider: 'local' });
    expect(row.id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(row.id).not.toBe('chosen-id');
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.pin_hash).toMatch(/^\$2[ab]\$12\$/);
    const wallet = await h.database.db
      .selectFrom('ledger.accounts' as never)
      .selectAll()
      .where('id' as never, '=', row.id as never)
      .executeTakeFirst();
    expect(wallet).toMatchObject({ kind: 'wallet', balance: 0n });

    const unverified = await h.call({
      method: 'POST',
      url: '/api/users/login',
      payload: { email, password: VALID_REGISTRATION.password },
    });
    expect(unverified.statusCode).toBe(403);
    expect(unverified.json()).toMatchObject({
      success: false,
      code: 'USER_NOT_VERIFIED',
      message: 'Please verify your email address to continue.',
    });

    const adminToken = await signIn(h, ADMIN.email, ADMIN.password);
    const activated = await h.call({
      method: 'POST',
      url: '/api/users/update-user-verified-status',
      headers: bearer(adminToken),
      payload: { user: row.id, status: 'verified' },
    });
    expect(activated.statusCode).toBe(200);
    expect(activated.json()).toMatchObject({ success: true, data: { _id: row.id, isVerified: true, balance: 0 } });
    const mail = await h.waitForMail('new.user@example.com');
    expect(mail.raw).toContain('Your wallet account is verified');
    expect(mail.raw).toContain(`${PUBLIC_URL}/login`);

    const token = await signIn(h, 'NEW.USER@example.com', VALID_REGISTRATION.password);
    const claims = claimsOf(token);
    expect(claims.sub).toBe(row.id);
    expect(claims.exp - claims.iat).toBe(12 * 3600);

    // The spec's session check: JSON content type, no body at all.
    const info = await h.call({
      method: 'POST',
      url: '/api/users/get-user-info',
      headers: { ...bearer(token), 'content-type': 'application/json' },
    });
    expect(info.statusCode).toBe(200);
    expect(info.json()).toEqual({
      success: true,
      message: expect.any(String),
      data: {
        _id: row.id,
        firstName: 'Asha',
        lastName: 'Verma',
        email: 'new.user@example.com',
        contactNo: VALID_REGISTRATION.contactNo,
        identification: 'Aadhaar Card',
        // Masked but for the last four (issue 41): the whole number only through the admins' audited reveal.
        identificationNumber: 'XXXX XXXX 9012',
        address: VALID_REGISTRATION.address,
        balance: 0,
        isAdmin: false,
        isVerified: true,
        authProvider: 'local',
        pinSet: true,
        // Chosen once on the dashboard (issue 43): none yet.
        handle: null,
        createdAt: row.created_at.toISOString(),
      },
    });
  });

  it('refuses a second account for the same e-mail in any case with 409', async () => {
    await registeredUser(h, 'dup@example.com', { activate: false });
    const again = await h.call({
      method: 'POST',
      url: '/api/users/register',
      payload: { ...VALID_REGISTRATION, email: 'DUP@Example.COM' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      success: false,
      code: 'email_taken',
      message: 'An account with this email already exists',
    });
  });

  it('stores a browser-made bcrypt PIN hash as it is and checks the plain PIN against it later', async () => {
    const browserHash = bcrypt.hashSync('482913', 12);
    const response = await h.call({
      method: 'POST',
      url: '/api/users/register',
      payload: { ...VALID_REGISTRATION, email: 'spec-client@example.com', transactionPin: browserHash },
    });
    expect(response.statusCode).toBe(201);
    const row = await identityDb(h.database.db)
      .selectFrom('identity.users')
      .select(['id', 'pin_hash'])
      .where('email', '=', 'spec-client@example.com')
      .executeTakeFirstOrThrow();
    expect(row.pin_hash).toBe(browserHash);
    const weak = await h.call({
      method: 'POST',
      url: '/api/users/register',
      payload: { ...VALID_REGISTRATION, email: 'weak@example.com', transactionPin: bcrypt.hashSync('1234', 4) },
    });
    expect(weak.statusCode).toBe(400);
  });

  it("a session lasts 12 hours, or the spec's 24 with rememberMe, never longer", async () => {
    const user = await registeredUser(h, 'remember@example.com');
    const lifetime = async (rememberMe: boolean) => {
      const response = await h.call({
        method: 'POST',
        url: '/api/users/login',
        payload: { email: user.email, password: VALID_REGISTRATION.password, rememberMe },
      });
      const claims = claimsOf(response.json().data as string);
      return claims.exp - claims.iat;
    };
    expect(await lifetime(true)).toBe(24 * 3600);
    expect(await lifetime(false)).toBe(12 * 3600);
  });

  it('logout ends the session on the server: the token is refused afterwards, on every device', async () => {
    const user = await registeredUser(h, 'leaving@example.com');
    const otherDevice = await signIn(h, user.email, VALID_REGISTRATION.password);
    const headers = { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' };
    const out = await h.call({ method: 'POST', url: '/api/users/logout', headers });
    expect(out.json()).toEqual({ success: true, message: 'Logged out successfully' });
    for (const token of [user.token, otherDevice]) {
      const after = await h.call({
        method: 'POST',
        url: '/api/users/get-user-info',
        headers: { ...headers, authorization: `Bearer ${token}` },
      });
      expect(after.statusCode).toBe(401);
    }
    const again = await signIn(h, user.email, VALID_REGISTRATION.password);
    expect(
      (
        await h.call({
          method: 'POST',
          url: '/api/users/get-user-info',
          headers: { ...headers, authorization: `Bearer ${again}` },
        })
      ).statusCode,
    ).toBe(200);
  });
});

describe('sign-in failures', () => {
  it('gives one 401 message for an unknown e-mail and a wrong password', async () => {
    await registeredUser(h, 'known@example.com');
    const unknown = await h.call({
      method: 'POST',
      url: '/api/users/login',
      payload: { email: 'nobody@example.com', password: 'whatever-password' },
    });
    const wrong = await h.call({
      method: 'POST',
      url: '/api/users/login',
      payload: { email: 'known@example.com', password: 'wrong-password' },
    });
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.json()).toEqual({ success: false, message: 'Invalid email or password', code: 'invalid_credentials' });
  });

  it('answers OAUTH_USER for an account that only signs in with Google', async () => {
    await identityDb(h.database.db)
      .insertInto('identity.users')
      .values({
        id: 'google-only-1',
        email: 'g@example.com',
        first_name: 'G',
        last_name: 'U',
        contact_no: null,
        identification: null,
        identification_number: null,
        address: null,
        password_hash: null,
        pin_hash: null,
        auth_provider: 'google',
        google_subject: 'sub-1',
        is_verified: true,
      })
      .execute();
    const response = await h.call({
      method: 'POST',
      url: '/api/users/login',
      payload: { email: 'g@example.com', password: 'whatever-password' },
    });
    expect(response.json()).toMatchObject({ success: false, code: 'OAUTH_USER' });
    const reset = await h.call({
      method: 'POST',
      url: '/api/users/send-password-reset-otp',
      payload: { email: 'g@example.com' },
    });
    expect(reset.statusCode).toBe(400);
    expect(reset.json()).toMatchObject({
      success: false,
      code: 'OAUTH_USER',
      message: 'Please use Google to sign in to your account',
    });
  });
});

describe('suspension and admin rules', () => {
  it("refuses a suspended user's existing token at once, also after reactivation", async () => {
    const user = await registeredUser(h, 'suspend-me@example.com');
    const adminToken = await signIn(h, ADMIN.email, ADMIN.password);
    expect(
      (await h.call({ method: 'POST', url: '/api/users/get-user-info', headers: bearer(user.token) })).statusCode,
    ).toBe(200);
    const suspended = await h.call({
      method: 'POST',
      url: '/api/users/update-user-verified-status',
      headers: bearer(adminToken),
      payload: { selectedUser: user.id, isVerified: false },
    });
    expect(suspended.json()).toMatchObject({
      success: true,
      message: 'User suspended successfully',
      data: { isVerified: false },
    });
    const refused = await h.call({ method: 'POST', url: '/api/users/get-user-info', headers: bearer(user.token) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ success: false, code: 'USER_NOT_VERIFIED' });
    await h.call({
      method: 'POST',
      url: '/api/users/update-user-verified-status',
      headers: bearer(adminToken),
      payload: { selectedUser: user.id, isVerified: true },
    });
    // Suspension ended that session for good: reactivation needs a new sign-in.
    expect(
      (await h.call({ method: 'POST', url: '/api/users/get-user-info', headers: bearer(user.token) })).json(),
    ).toMatchObject({ code: 'token_invalid' });
    const fresh = await signIn(h, user.email, VALID_REGISTRATION.password);
    expect((await h.call({ method: 'POST', url: '/api/users/get-user-info', headers: bearer(fresh) })).statusCode).toBe(
      200,
    );
  });

  it('an admin cannot suspend itself; unknown users are 404', async () => {
    const adminToken = await signIn(h, ADMIN.email, ADMIN.password);
    const me = (await h.call({ method: 'POST', url: '/api/users/get-user-info', headers: bearer(adminToken) })).json()
      .data as { _id: string };
    const self = await h.call({
      method: 'POST',
      url: '/api/users/update-user-verified-status',
      headers: bearer(adminToken),
      payload: { selectedUser: me._id, isVerified: false },
    });
    expect(self.statusCode).toBe(403);
    expect(self.json()).toMatchObject({ code: 'cannot_suspend_self' });
    const missing = await h.call({
      method: 'POST',
      url: '/api/users/update-user-verified-status',
      headers: bearer(adminToken),
      payload: { selectedUser: 'no-such-user', isVerified: true },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('lists users with balances as rupee numbers', async () => {
    const user = await registeredUser(h, 'rich@example.com');
    await h.ledger.completeCardDeposit(
      {
        depositId: 'dep-rich-1',
        walletId: user.id,
        amountPaise: 123_456n,
        reference: 'seed money',
        provider: 'sandbox',
        paymentId: 'pay-1',
      },
      { actorId: 'provider:card' },
    );
    const adminToken = await signIn(h, ADMIN.email, ADMIN.password);
    const list = await h.call({ method: 'GET', url: '/api/users/get-all-users', headers: bearer(adminToken) });
    const users = list.json().data as { _id: string; balance: unknown }[];
    expect(users.every((entry) => typeof entry.balance === 'number')).toBe(true);
    expect(users.find((entry) => entry._id === user.id)?.balance).toBe(1234.56);
    const own = await h.call({ method: 'POST', url: '/api/users/get-user-info', headers: bearer(user.token) });
    expect((own.json().data as { balance: unknown }).balance).toBe(1234.56);
  });
});

describe('QR', () => {
  it('encodes <PUBLIC_URL>/user/<account number> and ignores any query', async () => {
    const user = await registeredUser(h, 'qr@example.com');
    const response = await h.call({
      method: 'GET',
      url: '/api/users/generate-qr?url[userId]=someone-else&userId=x',
      headers: bearer(user.token),
    });
    expect(response.statusCode).toBe(200);
    const dataUrl = response.json().data as string;
    expect(dataUrl.startsWith('data:image/png;base64,')).toBe(true);
    const png = PNG.sync.read(Buffer.from(dataUrl.slice('data:image/png;base64,'.length), 'base64'));
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(decoded?.data).toBe(`${PUBLIC_URL}/user/${user.id}`);
    expect(accountFromQrText(decoded?.data ?? '')).toBe(user.id);
  });
});

describe('password reset by e-mailed code', () => {
  it('send -> code by e-mail -> verify -> reset; the new password works, the old one and old tokens do not', async () => {
    const user = await registeredUser(h, 'forgetful@example.com');
    const sent = await h.call({
      method: 'POST',
      url: '/api/users/send-password-reset-otp',
      payload: { email: 'Forgetful@Example.com' },
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({
      success: true,
      message: 'OTP sent to your email!',
      data: { email: 'forgetful@example.com', expiresIn: '15 minutes' },
    });
    const code = await receiveCode(user.email);
    const verified = await h.call({
      method: 'POST',
      url: '/api/users/verify-password-reset-otp',
      payload: { email: user.email, otp: code },
    });
    expect(verified.json()).toEqual({ success: true, message: 'OTP verified successfully!' });
    const reset = await h.call({
      method: 'POST',
      url: '/api/users/reset-password',
      payload: { email: user.email, otp: code, newPassword: 'brand-new-pass' },
    });
    expect(reset.json()).toEqual({
      success: true,
      message: 'Password reset successfully! You can now login with your new password.',
    });
    expect(
      (
        await h.call({
          method: 'POST',
          url: '/api/users/login',
          payload: { email: user.email, password: VALID_REGISTRATION.password },
        })
      ).statusCode,
    ).toBe(401);
    await signIn(h, user.email, 'brand-new-pass');
    const old = await h.call({ method: 'POST', url: '/api/users/get-user-info', headers: bearer(user.token) });
    expect(old.statusCode).toBe(401);
    // A code works once.
    const replay = await h.call({
      method: 'POST',
      url: '/api/users/reset-password',
      payload: { email: user.email, otp: code, newPassword: 'another-pass' },
    });
    expect(replay.statusCode).toBe(400);
    const stored = await identityDb(h.database.db).selectFrom('identity.one_time_codes').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(code);
  });

  it('reset without a verified code is refused', async () => {
    const user = await registeredUser(h, 'skipper@example.com');
    await h.call({ method: 'POST', url: '/api/users/send-password-reset-otp', payload: { email: user.email } });
    const code = await receiveCode(user.email);
    const reset = await h.call({
      method: 'POST',
      url: '/api/users/reset-password',
      payload: { email: user.email, otp: code, newPassword: 'brand-new-pass' },
    });
    expect(reset.statusCode).toBe(400);
    expect(reset.json()).toMatchObject({ code: 'otp_not_verified' });
  });

  it('a code expires after 15 minutes (password) and 10 minutes (PIN)', async () => {
    const user = await registeredUser(h, 'slow@example.com');
    await h.call({ method: 'POST', url: '/api/users/send-password-reset-otp', payload: { email: user.email } });
    const passwordCode = await receiveCode(user.email);
    await h.call({ method: 'POST', url: '/api/users/send-pin-reset-otp', payload: { email: user.email } });
    const pinCode = await receiveCode(user.email);
    h.clock.advance(10 * 60 * 1000 + 1000);
    const pinLate = await h.call({
      method: 'POST',
      url: '/api/users/verify-pin-reset-otp',
      payload: { email: user.email, otp: pinCode },
    });
    expect(pinLate.statusCode).toBe(400);
    expect(pinLate.json()).toMatchObject({ code: 'otp_expired' });
    h.clock.advance(4 * 60 * 1000);
    expect(
      (
        await h.call({
          method: 'POST',
          url: '/api/users/verify-password-reset-otp',
          payload: { email: user.email, otp: passwordCode },
        })
      ).statusCode,
    ).toBe(200);
    await h.call({ method: 'POST', url: '/api/users/send-password-reset-otp', payload: { email: user.email } });
    const second = await receiveCode(user.email);
    h.clock.advance(15 * 60 * 1000 + 1000);
    const late = await h.call({
      method: 'POST',
      url: '/api/users/verify-password-reset-otp',
      payload: { email: user.email, otp: second },
    });
    expect(late.json()).toMatchObject({ success: false, code: 'otp_expired' });
  });

  it('5 wrong codes void the code (attempts counted down), a resend gives a fresh one', async () => {
    const user = await registeredUser(h, 'guesser@example.com');
    await h.call({ method: 'POST', url: '/api/users/send-password-reset-otp', payload: { email: user.email } });
    const code = await receiveCode(user.email);
    const wrong = code === '000000' ? '111111' : '000000';
    const messages: string[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      const response = await h.call({
        method: 'POST',
        url: '/api/users/verify-password-reset-otp',
        payload: { email: user.email, otp: wrong },
      });
      messages.push(`${response.statusCode} ${response.json().message}`);
    }
    expect(messages).toEqual([
      '400 Invalid OTP. 4 attempts remaining.',
      '400 Invalid OTP. 3 attempts remaining.',
      '400 Invalid OTP. 2 attempts remaining.',
      '400 Invalid OTP. 1 attempt remaining.',
      '429 Too many failed attempts. Please request a new OTP.',
    ]);
    const right = await h.call({
      method: 'POST',
      url: '/api/users/verify-password-reset-otp',
      payload: { email: user.email, otp: code },
    });
    expect(right.statusCode).toBe(429);
    h.clock.advance(60_000);
    expect(
      (await h.call({ method: 'POST', url: '/api/users/resend-password-reset-otp', payload: { email: user.email } }))
        .statusCode,
    ).toBe(200);
    const fresh = await receiveCode(user.email);
    expect(
      (
        await h.call({
          method: 'POST',
          url: '/api/users/verify-password-reset-otp',
          payload: { email: user.email, otp: fresh },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('a new code is refused for 60 s with the seconds left', async () => {
    const user = await registeredUser(h, 'impatient@example.com');
    await h.call({ method: 'POST', url: '/api/users/send-pin-reset-otp', payload: { email: user.email } });
    await receiveCode(user.email);
    h.clock.advance(15_000);
    const early = await h.call({
      method: 'POST',
      url: '/api/users/resend-pin-reset-otp',
      payload: { email: user.email },
    });
    expect(early.statusCode).toBe(429);
    expect(early.json()).toEqual({
      success: false,
      message: 'Please wait 45 seconds before requesting a new OTP',
      code: 'otp_resend_wait',
    });
    expect(early.headers['retry-after']).toBe('45');
    h.clock.advance(45_000);
    const onTime = await h.call({
      method: 'POST',
      url: '/api/users/resend-pin-reset-otp',
      payload: { email: user.email },
    });
    expect(onTime.json()).toEqual({
      success: true,
      message: 'OTP sent to your email!',
      data: { email: user.email, expiresIn: '10 minutes' },
    });
    await receiveCode(user.email);
  });

  it('caps codes at 5 per address and purpose a day (each code brings 5 new attempts), for unknown addresses too', async () => {
    // The cap is per UTC day and this test moves the clock ~13 minutes: start at 01:00 UTC so a
    // run near midnight does not see the day turn (and the count reset) halfway.
    const now = h.clock.now();
    h.clock.advance(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 1) - now.getTime());
    const user = await registeredUser(h, 'capped@example.com');
    for (const email of [user.email, 'nobody-guessed@example.com']) {
      const statuses: number[] = [];
      for (let issued = 1; issued <= 6; issued++) {
        statuses.push(
          (await h.call({ method: 'POST', url: '/api/users/resend-pin-reset-otp', payload: { email } })).statusCode,
        );
        h.clock.advance(61_000);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      const refused = await h.call({ method: 'POST', url: '/api/users/send-pin-reset-otp', payload: { email } });
      expect(refused.json()).toMatchObject({ success: false, code: 'otp_daily_limit' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // The other purpose has its own count.
      expect(
        (await h.call({ method: 'POST', url: '/api/users/send-password-reset-otp', payload: { email } })).statusCode,
      ).toBe(200);
    }
    for (let mail = 0; mail < 5; mail++) await receiveCode(user.email);
    await receiveCode(user.email);
    h.clock.advance(24 * 60 * 60 * 1000);
    expect(
      (await h.call({ method: 'POST', url: '/api/users/send-pin-reset-otp', payload: { email: user.email } }))
        .statusCode,
    ).toBe(200);
    await receiveCode(user.email);
  });

  it('an unknown e-mail gets the same answers as a known one, and no mail', async () => {
    const user = await registeredUser(h, 'twin-known@example.com');
    const answers = async (email: string) => {
      const sent = await h.call({ method: 'POST', url: '/api/users/send-password-reset-otp', payload: { email } });
      const again = await h.call({ method: 'POST', url: '/api/users/resend-password-reset-otp', payload: { email } });
      const verify = await h.call({
        method: 'POST',
        url: '/api/users/verify-password-reset-otp',
        payload: { email, otp: '999999' },
      });
      const strip = (body: { data?: unknown }) => ({ ...body, data: body.data === undefined ? undefined : '<data>' });
      return [sent, again, verify].map((response) => [response.statusCode, strip(response.json())]);
    };
    const known = await answers(user.email);
    const unknown = await answers('twin-unknown@example.com');
    expect(unknown).toEqual(known);
    await receiveCode(user.email);
    // Not a wait for the system: the time a mail to the unknown address would need, to show none comes.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(h.mails.filter((mail) => mail.to === 'twin-unknown@example.com')).toEqual([]);
  });
});

describe('transaction PIN', () => {
  it('PIN reset by code sets a new PIN (10-minute code) that verify-transaction-pin accepts', async () => {
    const user = await registeredUser(h, 'pin-reset@example.com');
    await h.call({ method: 'POST', url: '/api/users/send-pin-reset-otp', payload: { email: user.email } });
    const code = await receiveCode(user.email);
    expect(
      (
        await h.call({
          method: 'POST',
          url: '/api/users/verify-pin-reset-otp',
          payload: { email: user.email, otp: code },
        })
      ).json(),
    ).toEqual({ success: true, message: 'OTP verified successfully!' });
    const reset = await h.call({
      method: 'POST',
      url: '/api/users/reset-transaction-pin',
      payload: { email: user.email, otp: code, newPin: '975310' },
    });
    expect(reset.json()).toEqual({ success: true, message: 'Transaction PIN updated successfully!' });
    expect(
      (
        await h.call({
          method: 'POST',
          url: '/api/users/verify-transaction-pin',
          headers: bearer(user.token),
          payload: { transactionPin: '975310' },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await h.call({
          method: 'POST',
          url: '/api/users/verify-transaction-pin',
          headers: bearer(user.token),
          payload: { transactionPin: '1234' },
        })
      ).statusCode,
    ).toBe(400);
  });

  it('wrong PINs lock for longer each time (5: 15 minutes, 10: an hour, 15: until a PIN reset by e-mail), and the refusal says so; a right PIN resets the count', async () => {
    const user = await registeredUser(h, 'pin-lock@example.com');
    const tryPin = (pin: string) =>
      h.call({
        method: 'POST',
        url: '/api/users/verify-transaction-pin',
        headers: bearer(user.token),
        payload: { transactionPin: pin },
      });
    const fiveWrong = async () => {
      const messages: string[] = [];
      for (let attempt = 0; attempt < 5; attempt++) messages.push((await tryPin('9999')).json().message);
      return messages;
    };
    for (let attempt = 0; attempt < 4; attempt++) expect((await tryPin('9999')).statusCode).toBe(400);
    expect((await tryPin('1234')).statusCode).toBe(200);
    const escalation =
      'After 10 wrong PINs in a row the lock lasts an hour; after 15, only a PIN reset by e-mail unlocks them.';
    expect(await fiveWrong()).toEqual([
      'Invalid transaction PIN. 4 attempts remaining before a 15-minute lock.',
      'Invalid transaction PIN. 3 attempts remaining before a 15-minute lock.',
      'Invalid transaction PIN. 2 attempts remaining before a 15-minute lock.',
      'Invalid transaction PIN. 1 attempt remaining before a 15-minute lock.',
      `Too many wrong PIN attempts. Transfers and deposits are locked for 15 more minutes. ${escalation}`,
    ]);
    const locked = await tryPin('1234');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ code: 'PIN_LOCKED' });
    h.clock.advance(10 * 60 * 1000);
    expect((await tryPin('1234')).json().message).toBe(
      `Too many wrong PIN attempts. Transfers and deposits are locked for 5 more minutes. ${escalation}`,
    );
    h.clock.advance(5 * 60 * 1000);

    // The count did not start over: five more wrong PINs lock for an hour.
    expect(await fiveWrong()).toEqual([
      'Invalid transaction PIN. 4 attempts remaining before a 1-hour lock.',
      'Invalid transaction PIN. 3 attempts remaining before a 1-hour lock.',
      'Invalid transaction PIN. 2 attempts remaining before a 1-hour lock.',
      'Invalid transaction PIN. 1 attempt remaining before a 1-hour lock.',
      `Too many wrong PIN attempts. Transfers and deposits are locked for 60 more minutes. ${escalation}`,
    ]);
    h.clock.advance(60 * 60 * 1000);
    const last = await fiveWrong();
    expect(last[0]).toBe('Invalid transaction PIN. 4 attempts remaining before only a PIN reset unlocks transfers.');
    const resetRequired =
      'Too many wrong PIN attempts. Reset your transaction PIN by e-mail (Reset Transaction PIN) to unlock transfers and deposits.';
    expect(last[4]).toBe(resetRequired);
    h.clock.advance(7 * 24 * 60 * 60 * 1000);
    const stillLocked = await tryPin('1234');
    expect(stillLocked.statusCode).toBe(403);
    expect(stillLocked.json()).toEqual({ success: false, message: resetRequired, code: 'PIN_RESET_REQUIRED' });

    await h.call({ method: 'POST', url: '/api/users/send-pin-reset-otp', payload: { email: user.email } });
    const code = await receiveCode(user.email);
    await h.call({ method: 'POST', url: '/api/users/verify-pin-reset-otp', payload: { email: user.email, otp: code } });
    expect(
      (
        await h.call({
          method: 'POST',
          url: '/api/users/reset-transaction-pin',
          payload: { email: user.email, otp: code, newPin: '4826' },
        })
      ).statusCode,
    ).toBe(200);
    expect((await tryPin('4826')).statusCode).toBe(200);
  });

  it('update-transaction-pin needs the current PIN; PIN_NOT_SET without one', async () => {
    const user = await registeredUser(h, 'pin-change@example.com');
    const change = (payload: object) =>
      h.call({ method: 'POST', url: '/api/users/update-transaction-pin', headers: bearer(user.token), payload });
    expect((await change({ currentPin: '0000', newPin: '5678' })).json()).toMatchObject({
      success: false,
      code: 'invalid_pin',
    });
    expect((await change({ currentPin: '1234', newPin: '56' })).json()).toMatchObject({
      success: false,
      message: 'PIN must be at least 4 digits',
    });
    expect((await change({ currentPin: '1234', newPin: '5678' })).json()).toEqual({
      success: true,
      message: 'Transaction PIN updated successfully!',
    });
    expect(
      (
        await h.call({
          method: 'POST',
          url: '/api/users/verify-transaction-pin',
          headers: bearer(user.token),
          payload: { transactionPin: '5678' },
        })
      ).statusCode,
    ).toBe(200);
    const adminToken = await signIn(h, ADMIN.email, ADMIN.password);
    const noPin = await h.call({
      method: 'POST',
      url: '/api/users/verify-transaction-pin',
      headers: bearer(adminToken),
      payload: { transactionPin: '1234' },
    });
    expect(noPin.json()).toEqual({
      success: false,
      message: 'Please set your transaction PIN first in settings.',
      code: 'PIN_NOT_SET',
    });
  });
});

describe('CORS', () => {
  it('a preflight from an allowed origin echoes it with credentials; others get no grant', async () => {
    const preflight = await h.call({
      method: 'OPTIONS',
      url: '/api/users/get-user-info',
      headers: {
        origin: 'http://client.test:4173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.statusCode).toBeLessThan(300);
    expect(preflight.headers['access-control-allow-origin']).toBe('http://client.test:4173');
    expect(preflight.headers['access-control-allow-credentials']).toBe('true');
    expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/authorization/);
    expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/content-type/);
    const foreign = await h.call({
      method: 'OPTIONS',
      url: '/api/users/login',
      headers: { origin: 'http://evil.test', 'access-control-request-method': 'POST' },
    });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });
});
