/**
 * Reset Password and Reset Transaction PIN: three steps, the spec's messages, OAUTH_USER,
 * the 60 s resend countdown, Back and Cancel.
 */
import { act, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, renderWithApp } from '../../../test/harness.tsx';
import { ResetSecretDialog } from './ResetSecretDialog.tsx';

const ok = () => ({ body: { success: true, message: 'ok' } });

describe('reset password dialog', () => {
  it('checks the e-mail and reports Google accounts under the field', async () => {
    const calls = fakeApi({
      '/api/users/send-password-reset-otp': () => ({
        status: 400,
        body: { success: false, code: 'OAUTH_USER', message: 'Please login using Google OAuth' },
      }),
    });
    renderWithApp(<ResetSecretDialog kind="password" open onOpenChange={() => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('Email is required')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Email'), 'nope');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeTruthy();
    expect(calls).toHaveLength(0);
    await userEvent.clear(screen.getByLabelText('Email'));
    await userEvent.type(screen.getByLabelText('Email'), 'g@example.in');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('Please use Google to sign in to your account')).toBeTruthy();
  });

  it('walks the three steps with the resend countdown, code rules and password rules', async () => {
    const calls = fakeApi({
      '/api/users/send-password-reset-otp': ok,
      '/api/users/verify-password-reset-otp': (call) =>
        call.body.otp === '123456'
          ? ok()
          : { status: 400, body: { success: false, message: 'Invalid OTP. 4 attempts remaining.' } },
      '/api/users/reset-password': ok,
    });
    renderWithApp(<ResetSecretDialog kind="password" open onOpenChange={() => undefined} />);
    expect(screen.getByText(/valid for 15 minutes/)).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Email'), 'asha@example.in');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('OTP sent to your email!')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Resend in 60s' }) as HTMLButtonElement).disabled).toBe(true);
    // Not a wait for the system: the resend countdown's one-second tick must pass (fake timers
    // would stall user-event and findBy* here).
    await act(() => new Promise((resolve) => setTimeout(resolve, 1100)));
    expect(screen.getByRole('button', { name: 'Resend in 59s' })).toBeTruthy();

    await userEvent.type(screen.getByLabelText('Verification code'), '12a3');
    expect((screen.getByLabelText('Verification code') as HTMLInputElement).value).toBe('123');
    await userEvent.click(screen.getByRole('button', { name: 'Verify code' }));
    expect(await screen.findByText('OTP must be 6 digits')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Verification code'), '999');
    await userEvent.click(screen.getByRole('button', { name: 'Verify code' }));
    expect((await screen.findAllByText('Invalid OTP. 4 attempts remaining.')).length).toBeGreaterThan(0);
    await userEvent.clear(screen.getByLabelText('Verification code'));
    await userEvent.type(screen.getByLabelText('Verification code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify code' }));
    expect(await screen.findByText('OTP verified successfully!')).toBeTruthy();

    await userEvent.type(screen.getByLabelText('New password'), 'abc');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'abd');
    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('Password must be at least 8 characters')).toBeTruthy();
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    expect(screen.getAllByText('Passwords do not match')).toHaveLength(1);
    await userEvent.clear(screen.getByLabelText('New password'));
    await userEvent.clear(screen.getByLabelText('Confirm new password'));
    await userEvent.type(screen.getByLabelText('New password'), 'newsecret');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'newsecret');
    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(
      await screen.findByText('Password reset successfully! You can now login with your new password.'),
    ).toBeTruthy();
    expect(calls.at(-1)).toMatchObject({
      path: '/api/users/reset-password',
      body: { email: 'asha@example.in', otp: '123456', newPassword: 'newsecret' },
    });
  });
});

describe('reset PIN dialog', () => {
  it('prefills the e-mail, goes Back a step, and applies the PIN rules', async () => {
    const calls = fakeApi({
      '/api/users/send-pin-reset-otp': ok,
      '/api/users/verify-pin-reset-otp': ok,
      '/api/users/reset-transaction-pin': ok,
    });
    renderWithApp(<ResetSecretDialog kind="pin" open onOpenChange={() => undefined} defaultEmail="asha@example.in" />);
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('asha@example.in');
    expect(screen.getByText(/valid for 10 minutes/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Back' }));
    expect(screen.getByRole('button', { name: 'Send code' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    await userEvent.type(await screen.findByLabelText('Verification code'), '654321');
    await userEvent.click(screen.getByRole('button', { name: 'Verify code' }));
    await userEvent.type(await screen.findByLabelText('New PIN'), '12x');
    expect((screen.getByLabelText('New PIN') as HTMLInputElement).value).toBe('12');
    await userEvent.type(screen.getByLabelText('Confirm new PIN'), '12');
    await userEvent.click(screen.getByRole('button', { name: 'Update PIN' }));
    expect(await screen.findByText('PIN must be at least 4 digits')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('New PIN'), '34');
    await userEvent.type(screen.getByLabelText('Confirm new PIN'), '35');
    await userEvent.click(screen.getByRole('button', { name: 'Update PIN' }));
    expect(await screen.findByText('PINs do not match')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('Confirm new PIN'));
    await userEvent.type(screen.getByLabelText('Confirm new PIN'), '1234');
    await userEvent.click(screen.getByRole('button', { name: 'Update PIN' }));
    expect(await screen.findByText('Transaction PIN updated successfully!')).toBeTruthy();
    expect(calls.at(-1)).toMatchObject({
      path: '/api/users/reset-transaction-pin',
      body: { email: 'asha@example.in', otp: '654321', newPin: '1234' },
    });
  });
});
