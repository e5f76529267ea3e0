import { describe, expect, it } from 'vitest';
import { fieldErrors } from './fields.ts';
import { formatRupees, paiseFromRupees, rupeesFromPaise } from './money.ts';
import { depositSchema, sendRequestSchema, transferSchema } from './transactions.ts';
import { loginSchema, registerFormSchema, registerPayloadSchema } from './users.ts';
import { accountFromQrText } from './qr.ts';

const errorsOf = (result: { success: boolean; error?: unknown }) =>
  result.success ? {} : fieldErrors(result.error as Parameters<typeof fieldErrors>[0]);

describe('rupee amounts', () => {
  it('parse exactly to paise and refuse anything that is not a plain 2-decimal amount', () => {
    expect(paiseFromRupees(10.05)).toBe(1005n);
    expect(paiseFromRupees('0.1')).toBe(10n);
    expect(paiseFromRupees(100000)).toBe(10_000_000n);
    for (const bad of [NaN, Infinity, -1, 1.005, '1e3', '12abc', null, {}, 1e21])
      expect(paiseFromRupees(bad)).toBeNull();
    expect(rupeesFromPaise(1005n)).toBe(10.05);
    expect(rupeesFromPaise(-250n)).toBe(-2.5);
    expect(formatRupees(-3750)).toBe('-₹3,750');
    expect(formatRupees(100000.5)).toBe('₹1,00,000.50');
    expect(formatRupees(1224.25, { whole: true })).toBe('₹1,224');
  });
});

describe('transfer payload', () => {
  const valid = { receiver: 'abc', amount: 10, reference: 'rent', transactionPin: '1234' };
  it('accepts a valid payload and yields paise', () => {
    const parsed = transferSchema.parse(valid);
    expect(parsed.amount).toBe(1000n);
  });
  it.each([
    [{ receiver: '' }, 'receiver', 'Account number is required'],
    [{ amount: undefined }, 'amount', 'Amount is required'],
    // The spec's message for any amount that is not a number above 0 (the field's hint says why).
    [{ amount: 'abc' }, 'amount', 'Please enter a valid amount'],
    [{ amount: '-5' }, 'amount', 'Please enter a valid amount'],
    [{ amount: '+5' }, 'amount', 'Please enter a valid amount'],
    [{ amount: '1.234' }, 'amount', 'Please enter a valid amount'],
    [{ amount: '1.2.3' }, 'amount', 'Please enter a valid amount'],
    [{ amount: -5 }, 'amount', 'Please enter a valid amount'],
    [{ amount: 1.001 }, 'amount', 'Please enter a valid amount'],
    [{ amount: 0.5 }, 'amount', 'Minimum transfer amount is ₹1'],
    [{ reference: '' }, 'reference', 'Reference is required'],
    [{ reference: ' ab ' }, 'reference', 'Reference must be at least 3 characters'],
    [{ transactionPin: '' }, 'transactionPin', 'Transaction PIN is required'],
    [{ transactionPin: '12' }, 'transactionPin', 'PIN must be at least 4 digits'],
    [{ transactionPin: '1234567' }, 'transactionPin', 'PIN must not exceed 6 digits'],
  ])('%o -> %s: %s', (patch, field, message) => {
    expect(errorsOf(transferSchema.safeParse({ ...valid, ...patch }))[field]).toBe(message);
  });
});

describe('deposit payload', () => {
  const base = { amount: 500, reference: 'top up', transactionPin: '1234' };
  it('validates only the chosen method', () => {
    const upi = depositSchema.parse({
      ...base,
      paymentMethod: 'upi',
      upiDetails: { upiId: 'Alice@OKBank' },
      bankDetails: { accountNumber: '' },
    });
    expect(upi.paymentMethod === 'upi' && upi.upiDetails.upiId).toBe('alice@okbank');
  });
  it.each([
    [{ paymentMethod: 'upi', upiDetails: { upiId: 'a@1' } }, 'upiDetails.upiId', 'Please enter a valid UPI ID'],
    [
      {
        paymentMethod: 'bank_transfer',
        bankDetails: { accountNumber: '1234', ifscCode: 'SBIN0001234', bankName: 'SBI' },
      },
      'bankDetails.accountNumber',
      'Account number must be at least 8 digits',
    ],
    [
      {
        paymentMethod: 'bank_transfer',
        bankDetails: { accountNumber: '12345678', ifscCode: 'SBIN1001234', bankName: 'SBI' },
      },
      'bankDetails.ifscCode',
      'Please enter a valid IFSC code',
    ],
    [
      { paymentMethod: 'upi', upiDetails: { upiId: 'ok@bank' }, amount: 100001 },
      'amount',
      'Maximum deposit amount is ₹1,00,000',
    ],
    [{ paymentMethod: 'upi', upiDetails: { upiId: 'ok@bank' }, amount: 0.5 }, 'amount', 'Minimum deposit amount is ₹1'],
  ])('%o -> %s: %s', (patch, field, message) => {
    expect(errorsOf(depositSchema.safeParse({ ...base, ...patch }))[field]).toBe(message);
  });
  it('refuses an unknown method', () => {
    expect(depositSchema.safeParse({ ...base, paymentMethod: 'cash' }).success).toBe(false);
  });
});

describe('money request payload', () => {
  it.each([
    [{ amount: 0 }, 'amount', 'Please enter a valid amount greater than 0'],
    [{ amount: 1000000.01 }, 'amount', 'Amount cannot exceed ₹10,00,000'],
    [{ reference: 'x'.repeat(501) }, 'reference', 'Reference must be at most 500 characters'],
  ])('%o -> %s: %s', (patch, field, message) => {
    expect(
      errorsOf(sendRequestSchema.safeParse({ receiver: 'abc', amount: 5, reference: 'lunch', ...patch }))[field],
    ).toBe(message);
  });
});

describe('identity forms', () => {
  const form = {
    firstName: 'Asha',
    lastName: 'Rao',
    email: 'asha@example.in',
    contactNo: '+91 98765 43210',
    identification: 'PAN Card',
    identificationNumber: 'ABCDE1234F',
    address: 'Pune',
    password: 'longenough',
    confirmPassword: 'longenough',
    transactionPin: '1234',
    confirmPin: '1234',
  };
  it.each([
    [{ email: 'nope' }, 'email', 'Email is invalid'],
    [{ contactNo: '12345' }, 'contactNo', 'Invalid contact number'],
    [{ identification: '' }, 'identification', 'Please select identification type'],
    [{ password: 'short', confirmPassword: 'short' }, 'password', 'Password must be at least 8 characters'],
    [{ confirmPassword: 'different' }, 'confirmPassword', 'Passwords do not match'],
    [{ confirmPassword: '' }, 'confirmPassword', 'Please confirm your password'],
    [{ transactionPin: '12', confirmPin: '12' }, 'transactionPin', 'PIN must be at least 4 digits'],
    [{ transactionPin: '1234567', confirmPin: '1234567' }, 'transactionPin', 'PIN must be at most 6 digits'],
    [{ confirmPin: '4321' }, 'confirmPin', 'PINs do not match'],
  ])('%o -> %s: %s', (patch, field, message) => {
    expect(errorsOf(registerFormSchema.safeParse({ ...form, ...patch }))[field]).toBe(message);
  });
  it('accepts a browser-made bcrypt hash of cost >= 10 as the PIN, and drops unknown fields', () => {
    const hash = '$2a$12$' + 'a'.repeat(53);
    const parsed = registerPayloadSchema.parse({ ...form, transactionPin: hash, isAdmin: true, balance: 1e9 });
    expect(parsed.transactionPin).toBe(hash);
    expect(parsed).not.toHaveProperty('isAdmin');
    expect(registerPayloadSchema.safeParse({ ...form, transactionPin: '$2a$04$' + 'a'.repeat(53) }).success).toBe(
      false,
    );
  });
  it('checks sign-in fields', () => {
    expect(errorsOf(loginSchema.safeParse({ email: 'a@b.co', password: '123' })).password).toBe(
      'Password must be at least 6 characters',
    );
  });
});

describe('QR content', () => {
  it('extracts the account number from an account URL only', () => {
    expect(accountFromQrText('https://wallet.example//user/abc-123')).toBe('abc-123');
    expect(accountFromQrText('http://localhost:3000/user/abc_1?x=1')).toBe('abc_1');
    expect(accountFromQrText('https://example.com/users/abc')).toBeNull();
  });
});
