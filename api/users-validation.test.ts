/**
 * Every validation message of spec section 5 for the identity forms, over HTTP, each from a
 * payload that is valid but for the one field. The confirmation rules are not on the wire
 * (the spec's client does not send confirm fields): they are checked on the shared form
 * schemas the web app uses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerFormSchema, resetPasswordFormSchema, resetPinFormSchema } from '../contracts/users.ts';
import { VALID_REGISTRATION, findSecrets, startHarness, type Harness } from '../test/app-harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  expect(findSecrets(h.replies, [])).toEqual([]);
  await h.close();
});

async function messageOf(url: string, payload: object): Promise<[number, string | undefined, string | undefined]> {
  const response = await h.call({ method: 'POST', url, payload });
  const body = response.json();
  return [response.statusCode, body.message, body.code];
}

const registration = { ...VALID_REGISTRATION, email: 'valid@example.com' };

describe('sign-in (spec 5)', () => {
  it.each([
    [{ email: 'not-an-email', password: 'secret-1' }, 'Email is invalid'],
    [{ email: '', password: 'secret-1' }, 'Email is required'],
    [{ email: 'a@b.co', password: '12345' }, 'Password must be at least 6 characters'],
  ])('%j -> %s', async (payload, message) => {
    expect(await messageOf('/api/users/login', payload)).toEqual([400, message, 'validation_failed']);
  });
});

describe('registration (spec 5)', () => {
  it.each([
    [{ firstName: '' }, 'First name is required'],
    [{ lastName: '  ' }, 'Last name is required'],
    [{ address: '' }, 'Address is required'],
    [{ identificationNumber: '' }, 'Identification number is required'],
    [{ identification: 'Library Card' }, 'Please select identification type'],
    [{ identification: undefined }, 'Please select identification type'],
    [{ email: 'nope' }, 'Email is invalid'],
    [{ contactNo: '12345' }, 'Invalid contact number'],
    [{ contactNo: '98765abc43210' }, 'Invalid contact number'],
    [{ password: 'short' }, 'Password must be at least 8 characters'],
    [{ transactionPin: '12' }, 'PIN must be at least 4 digits'],
    [{ transactionPin: '1234567' }, 'PIN must be at most 6 digits'],
  ])('%j -> %s', async (change, message) => {
    expect(await messageOf('/api/users/register', { ...registration, ...change })).toEqual([
      400,
      message,
      'validation_failed',
    ]);
  });

  it('accepts the contact formats of the rule: plus, spaces, dashes, brackets', async () => {
    for (const [index, contactNo] of ['+91 (987) 654-3210', '09876543210'].entries()) {
      const [status] = await messageOf('/api/users/register', {
        ...registration,
        email: `contact${index}@example.com`,
        contactNo,
      });
      expect(status).toBe(201);
    }
  });

  it('form-only rules (confirmations) on the shared form schema', () => {
    const form = {
      ...registration,
      confirmPassword: registration.password,
      transactionPin: '1234',
      confirmPin: '1234',
    };
    const first = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
      result.error?.issues[0]?.message;
    expect(first(registerFormSchema.safeParse({ ...form, confirmPassword: 'different-pass' }))).toBe(
      'Passwords do not match',
    );
    expect(first(registerFormSchema.safeParse({ ...form, confirmPassword: '' }))).toBe('Please confirm your password');
    expect(first(registerFormSchema.safeParse({ ...form, confirmPin: '4321' }))).toBe('PINs do not match');
    expect(first(resetPasswordFormSchema.safeParse({ newPassword: 'abcdefgh', confirmPassword: 'abcdefgi' }))).toBe(
      'Passwords do not match',
    );
    expect(first(resetPinFormSchema.safeParse({ newPin: '1234', confirmPin: '1235' }))).toBe('PINs do not match');
  });
});

describe('password and PIN reset (spec 5)', () => {
  const routes = ['send-password-reset-otp', 'resend-password-reset-otp', 'send-pin-reset-otp', 'resend-pin-reset-otp'];
  it.each(routes)('%s: e-mail rules', async (route) => {
    expect(await messageOf(`/api/users/${route}`, {})).toEqual([400, 'Email is required', 'validation_failed']);
    expect(await messageOf(`/api/users/${route}`, { email: '' })).toEqual([
      400,
      'Email is required',
      'validation_failed',
    ]);
    expect(await messageOf(`/api/users/${route}`, { email: 'x@y' })).toEqual([
      400,
      'Please enter a valid email address',
      'validation_failed',
    ]);
  });

  it.each(['verify-password-reset-otp', 'verify-pin-reset-otp'])('%s: code rules', async (route) => {
    expect(await messageOf(`/api/users/${route}`, { email: 'a@b.co' })).toEqual([
      400,
      'OTP is required',
      'validation_failed',
    ]);
    expect(await messageOf(`/api/users/${route}`, { email: 'a@b.co', otp: '' })).toEqual([
      400,
      'OTP is required',
      'validation_failed',
    ]);
    expect(await messageOf(`/api/users/${route}`, { email: 'a@b.co', otp: '12345' })).toEqual([
      400,
      'OTP must be 6 digits',
      'validation_failed',
    ]);
    expect(await messageOf(`/api/users/${route}`, { email: 'a@b.co', otp: '12a456' })).toEqual([
      400,
      'OTP must be 6 digits',
      'validation_failed',
    ]);
  });

  it('reset-password: the same rule as registration (at least 8)', async () => {
    expect(
      await messageOf('/api/users/reset-password', { email: 'a@b.co', otp: '123456', newPassword: '1234567' }),
    ).toEqual([400, 'Password must be at least 8 characters', 'validation_failed']);
    expect(await messageOf('/api/users/reset-password', { email: 'a@b.co', otp: '123456' })).toEqual([
      400,
      'Password is required',
      'validation_failed',
    ]);
  });

  it('reset-transaction-pin: 4 to 6 digits only', async () => {
    const pinMessage = async (newPin: string) =>
      (await messageOf('/api/users/reset-transaction-pin', { email: 'a@b.co', otp: '123456', newPin }))[1];
    expect(await pinMessage('1234567')).toBe('PIN must not exceed 6 digits');
    expect(await pinMessage('12a4')).toBe('PIN must contain only numbers');
    expect(await pinMessage('123')).toBe('PIN must be at least 4 digits');
    expect(await pinMessage('')).toBe('PIN is required');
  });
});
