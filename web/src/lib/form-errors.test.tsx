/**
 * The shared form rules' messages in Hindi (issue 43 item 4): every message the forms' schemas
 * (contracts/) give for bad input is shown in Hindi with its figures, stays word for word in
 * English, and a dialog's refusals read in Hindi under their fields.
 */
import { act, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { chooseHandleSchema } from '../../../contracts/payees.ts';
import { statementPeriodSchema } from '../../../contracts/statements.ts';
import { depositSchema, sendRequestSchema, transferSchema } from '../../../contracts/transactions.ts';
import {
  loginSchema,
  registerFormSchema,
  resetPasswordFormSchema,
  resetPinFormSchema,
  verifyOtpSchema,
} from '../../../contracts/users.ts';
import { TransferDialog } from '../features/transactions/components/TransferDialog.tsx';
import { loadLanguage, setLanguage } from '../i18n/i18n.ts';
import { fakeApi, renderWithApp, USER } from '../test/harness.tsx';
import { localizedFormError } from './form-errors.ts';

/** Bad input for every form that checks with a shared schema: each gives several reasons. */
const REFUSED: [z.ZodType, unknown][] = [
  [transferSchema, { receiver: '', amount: '', reference: 'ab', transactionPin: '12' }],
  [transferSchema, { receiver: 'x', amount: '0.5', reference: 'y'.repeat(201), transactionPin: '1234567' }],
  [transferSchema, { receiver: 'x', amount: 'abc', reference: '', transactionPin: '' }],
  [depositSchema, { paymentMethod: 'x' }],
  [
    depositSchema,
    {
      paymentMethod: 'bank_transfer',
      amount: '100001',
      reference: '',
      transactionPin: '',
      bankDetails: { accountNumber: '12a', ifscCode: 'X', bankName: '' },
    },
  ],
  [depositSchema, { paymentMethod: 'bank_transfer', amount: '0.5', reference: 'ab', bankDetails: {} }],
  [depositSchema, { paymentMethod: 'upi', amount: '', reference: 'top up', upiDetails: { upiId: 'a@1' } }],
  [depositSchema, { paymentMethod: 'upi', amount: '5', reference: 'top up', upiDetails: { upiId: '' } }],
  [depositSchema, { paymentMethod: 'card', amount: '5', reference: 'top up', paymentMethodId: '' }],
  [sendRequestSchema, { receiver: '', amount: '0', reference: '' }],
  [sendRequestSchema, { receiver: 'x', amount: '1000001', reference: 'z'.repeat(501) }],
  [loginSchema, { email: '', password: '' }],
  [loginSchema, { email: 'not-an-email', password: '123' }],
  [
    registerFormSchema,
    {
      firstName: '',
      lastName: '',
      email: '',
      contactNo: '',
      identification: '',
      identificationNumber: '',
      address: '',
      password: '1234',
      confirmPassword: '',
      transactionPin: 'ab',
      confirmPin: '',
    },
  ],
  [
    registerFormSchema,
    { contactNo: 'abc', password: '12345678', confirmPassword: '12345679', transactionPin: '1234', confirmPin: '4321' },
  ],
  [verifyOtpSchema, { email: 'a@b.in', otp: '' }],
  [verifyOtpSchema, { email: 'a@b.in', otp: '12' }],
  [resetPinFormSchema, { newPin: '', confirmPin: '1' }],
  [resetPinFormSchema, { newPin: '12a4', confirmPin: '12a4' }],
  [resetPasswordFormSchema, { newPassword: '', confirmPassword: '' }],
  [chooseHandleSchema, { handle: '' }],
  [chooseHandleSchema, { handle: '-x' }],
  [statementPeriodSchema, { from: '', to: '2026-13-01' }],
  [statementPeriodSchema, { from: '2026-02-30', to: '26-1-1' }],
  [statementPeriodSchema, { from: '2026-05-01', to: '2026-04-01' }],
  [statementPeriodSchema, { from: '2020-01-01', to: '2026-04-01' }],
];

function refusals(): string[] {
  const messages = new Set<string>();
  for (const [schema, input] of REFUSED) {
    const result = schema.safeParse(input);
    expect(result.success, JSON.stringify(input)).toBe(false);
    for (const issue of result.error?.issues ?? []) messages.add(issue.message);
  }
  return [...messages];
}

const DEVANAGARI = /[\u0900-\u097F]/;

beforeAll(async () => {
  await loadLanguage('hi');
});

afterEach(() => {
  act(() => setLanguage('en'));
});

describe('the shared form messages', () => {
  it('are each said in Hindi, with their figures, and stay word for word in English', () => {
    const hindi = i18next.getFixedT('hi');
    const english = i18next.getFixedT('en');
    const messages = refusals();
    // The inputs above reach a wide spread of the rules, the limits' messages included.
    expect(messages.length).toBeGreaterThan(40);
    for (const message of messages) {
      expect(localizedFormError(message, english), message).toBe(message);
      const shown = localizedFormError(message, hindi);
      expect(shown, message).toMatch(DEVANAGARI);
      for (const figure of message.match(/₹[\d,]+|\d+/g) ?? []) expect(shown, message).toContain(figure);
    }
  });

  it('leave a message that is not a shared rule as it came', () => {
    expect(localizedFormError('Invalid transaction PIN', i18next.getFixedT('hi'))).toBe('Invalid transaction PIN');
  });

  it('read in Hindi under the transfer dialog fields a Continue refused', async () => {
    fakeApi({});
    act(() => setLanguage('hi'));
    renderWithApp(<TransferDialog open onOpenChange={() => undefined} userId={USER._id} balance={1000} />);
    await userEvent.type(screen.getByLabelText('संदर्भ'), 'ab');
    await userEvent.click(screen.getByRole('button', { name: 'आगे बढ़ें' }));
    expect(await screen.findByText('राशि डालना ज़रूरी है')).toBeTruthy();
    expect(screen.getByText('संदर्भ कम से कम 3 अक्षरों का होना चाहिए')).toBeTruthy();
    expect(screen.queryByText('Amount is required')).toBeNull();
  });
});
