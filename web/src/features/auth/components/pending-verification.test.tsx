/**
 * /user-not-verified is titled by how the user got there: right after registering it says the
 * registration succeeded; from a sign-in to an account an administrator has not verified yet
 * it says so (it used to say "Registration Successful!" to someone who registered days ago).
 */
import { screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import i18next from 'i18next';
import { Navigate } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { fakeApi, renderWithApp } from '../../../test/harness.tsx';
import { LoginForm } from './LoginForm.tsx';
import PendingVerificationPage from './PendingVerificationPage.tsx';

const PENDING_ROUTE = { path: '/user-not-verified', element: <PendingVerificationPage /> };

async function signInUnverified(): Promise<void> {
  fakeApi({
    '/api/users/login': () => ({ status: 403, body: { success: false, code: 'USER_NOT_VERIFIED', message: 'x' } }),
  });
  renderWithApp(<LoginForm onSignedIn={() => undefined} onForgotPassword={() => undefined} />, {
    path: '/login',
    extraRoutes: [PENDING_ROUTE],
  });
  await userEvent.type(screen.getByLabelText('Email'), 'asha@example.in');
  await userEvent.type(screen.getByLabelText('Password'), 'secret123');
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('pending verification page', () => {
  it('reached from sign-in, is titled awaiting verification, not as just registered', async () => {
    await signInUnverified();
    expect(await screen.findByRole('heading', { name: 'Awaiting Verification' })).toBeTruthy();
    expect(screen.queryByText('Almost there')).toBeNull();
  });

  it('says the same in Hindi', async () => {
    await i18next.changeLanguage('hi');
    fakeApi({});
    renderWithApp(<PendingVerificationPage />, { path: '/user-not-verified' });
    expect(await screen.findByRole('heading', { name: 'सत्यापन बाकी है' })).toBeTruthy();
    expect(screen.queryByText('बस एक कदम बाकी')).toBeNull();
  });

  it('right after registering, says the wallet was made and counts down, without saying "Registration successful" again', async () => {
    fakeApi({});
    renderWithApp(<Navigate to="/user-not-verified" state={{ registered: true }} />, {
      path: '/register-done',
      extraRoutes: [PENDING_ROUTE],
    });
    expect(await screen.findByRole('heading', { name: 'Almost there' })).toBeTruthy();
    expect(screen.getByText('Your wallet has been created.')).toBeTruthy();
    expect(screen.getByText('You can check again in 60s.')).toBeTruthy();
    // The registration form's toast said it, once.
    expect(document.body.textContent).not.toMatch(/registration successful/i);
  });
});
