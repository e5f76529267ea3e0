/**
 * Sign-in and registration forms: the spec's rules and messages (section 5), what is sent,
 * and where the user goes.
 */
import { cleanup, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, renderWithApp } from '../../../test/harness.tsx';
import { startGoogleSignInUrl } from '../lib/google-nonce.ts';
import { LoginForm } from './LoginForm.tsx';
import RegisterPage from './RegisterPage.tsx';

function renderLogin(path = '/login') {
  const onSignedIn = vi.fn();
  renderWithApp(<LoginForm onSignedIn={onSignedIn} onForgotPassword={() => undefined} />, {
    path,
    extraRoutes: [
      { path: '/dashboard', element: <p>dashboard page</p> },
      { path: '/transactions', element: <p>transactions page</p> },
      { path: '/user-not-verified', element: <p>pending page</p> },
    ],
  });
  return onSignedIn;
}

describe('sign-in form', () => {
  it('says when Google sign-in is not configured', async () => {
    fakeApi({
      '/api/config': () => ({
        body: { success: true, message: 'ok', data: { googleSignIn: false, cardProvider: 'sandbox' } },
      }),
    });
    renderLogin();
    expect(await screen.findByText('Google sign-in is not configured on this server.')).toBeTruthy();
  });

  it('shows the e-mail and password rules under their fields and calls nothing', async () => {
    const calls = fakeApi({});
    renderLogin();
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email');
    await userEvent.type(screen.getByLabelText('Password'), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Email is invalid')).toBeTruthy();
    expect(screen.getByText('Password must be at least 6 characters')).toBeTruthy();
    expect(calls.filter((call) => call.path !== '/api/config')).toHaveLength(0);
  });

  it('signs in: sends email, password and rememberMe, toasts, stores the token after 1 s', async () => {
    const calls = fakeApi({
      '/api/users/login': () => ({ body: { success: true, message: 'ok', data: 'jwt-token' } }),
    });
    const onSignedIn = renderLogin();
    await userEvent.type(screen.getByLabelText('Email'), 'Asha@Example.in');
    await userEvent.type(screen.getByLabelText('Password'), 'secret123');
    await userEvent.click(screen.getByLabelText('Remember me'));
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Login successful! Welcome back.')).toBeTruthy();
    expect(calls.find((call) => call.path === '/api/users/login')?.body).toEqual({
      email: 'asha@example.in',
      password: 'secret123',
      rememberMe: true,
    });
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith('jwt-token'), { timeout: 2000 });
    expect(await screen.findByText('dashboard page')).toBeTruthy();
  });

  it('sends an unverified user to /user-not-verified with the warning', async () => {
    fakeApi({
      '/api/users/login': () => ({ status: 403, body: { success: false, code: 'USER_NOT_VERIFIED', message: 'x' } }),
    });
    renderLogin();
    await userEvent.type(screen.getByLabelText('Email'), 'asha@example.in');
    await userEvent.type(screen.getByLabelText('Password'), 'secret123');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('pending page')).toBeTruthy();
    expect(screen.getByText('Your account is awaiting verification by an administrator.')).toBeTruthy();
  });

  it('shows the server message, else the fallback', async () => {
    fakeApi({ '/api/users/login': () => ({ status: 401, body: { success: false, message: '' } }) });
    renderLogin();
    await userEvent.type(screen.getByLabelText('Email'), 'asha@example.in');
    await userEvent.type(screen.getByLabelText('Password'), 'secret123');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Login failed. Please check your credentials.')).toBeTruthy();
  });

  it('handles the Google redirect: ?token&success with the nonce this tab started with signs in', async () => {
    fakeApi({});
    const nonce = new URL(startGoogleSignInUrl(), 'http://wallet.test').searchParams.get('nonce');
    const onSignedIn = renderLogin(`/login?token=google-jwt&success=true&nonce=${nonce}`);
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith('google-jwt'));
    expect(await screen.findByText('dashboard page')).toBeTruthy();
  });

  it('takes the token out of the address bar at once (history.replaceState), keeping the nonce check', async () => {
    fakeApi({});
    const nonce = new URL(startGoogleSignInUrl(), 'http://wallet.test').searchParams.get('nonce');
    const landing = `/login?token=google-jwt&success=true&nonce=${nonce}&next=%2Ftransactions`;
    // The browser's address bar (the app's router is in memory here, so only this effect can change it).
    window.history.pushState({ idx: 0 }, '', landing);
    const replaceState = vi.spyOn(window.history, 'replaceState');
    try {
      const onSignedIn = renderLogin(landing);
      await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith('google-jwt'));
      // The router goes on to `next` (a navigation to a route it lacked failed after the test).
      expect(await screen.findByText('transactions page')).toBeTruthy();
      expect(replaceState).toHaveBeenCalled();
      expect(window.location.search).not.toContain('token');
      expect(window.location.search).not.toContain('nonce');
      expect(window.location.pathname).toBe('/login');
      // What is not the sign-in's stays, and so does the router's state.
      expect(new URLSearchParams(window.location.search).get('next')).toBe('/transactions');
      expect(window.history.state).toEqual({ idx: 0 });
      cleanup();
      // A refused token (no nonce of this tab) is taken out of the address bar just the same.
      window.history.pushState(null, '', '/login?token=attacker-jwt&success=true');
      const refused = renderLogin('/login?token=attacker-jwt&success=true');
      expect(await screen.findByText('Login failed. Please try again.')).toBeTruthy();
      expect(refused).not.toHaveBeenCalled();
      expect(window.location.search).toBe('');
    } finally {
      replaceState.mockRestore();
      window.history.replaceState(null, '', '/');
    }
  });

  it('refuses a token it did not ask for (login CSRF): no nonce, or another one', async () => {
    fakeApi({});
    const onSignedIn = renderLogin('/login?token=attacker-jwt&success=true');
    expect(await screen.findByText('Login failed. Please try again.')).toBeTruthy();
    startGoogleSignInUrl();
    cleanup();
    const again = renderLogin('/login?token=attacker-jwt&success=true&nonce=someone-elses-nonce-1234');
    expect(await screen.findByText('Login failed. Please try again.')).toBeTruthy();
    expect(onSignedIn).not.toHaveBeenCalled();
    expect(again).not.toHaveBeenCalled();
  });

  it('maps ?error=oauth_failed', async () => {
    fakeApi({});
    renderLogin('/login?error=oauth_failed');
    expect(await screen.findByText('Google authentication failed. Please try again.')).toBeTruthy();
  });
});

describe('registration form', () => {
  async function fill(overrides: Partial<Record<string, string>> = {}) {
    const values: Record<string, string> = {
      'First name': 'Asha',
      'Last name': 'Rao',
      Email: 'asha@example.in',
      'Contact number': '+91 98765 43210',
      'Identification number': 'ABCDE1234F',
      Address: 'Pune',
      Password: 'longenough',
      'Confirm password': 'longenough',
      'Transaction PIN': '1234',
      'Confirm PIN': '1234',
      ...overrides,
    };
    for (const [label, value] of Object.entries(values))
      if (value) await userEvent.type(screen.getByLabelText(label), value);
    await userEvent.selectOptions(screen.getByLabelText('Identification type'), overrides.identification ?? 'PAN Card');
  }

  it('shows every required-field message on an empty submit', async () => {
    const calls = fakeApi({});
    renderWithApp(<RegisterPage />, { path: '/register' });
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('First name is required')).toBeTruthy();
    expect(screen.getByText('Please select identification type')).toBeTruthy();
    expect(screen.getByText('Contact number is required')).toBeTruthy();
    expect(screen.getByText('Password must be at least 8 characters')).toBeTruthy();
    expect(screen.getByText('Please confirm your password')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('keeps digits only in the PIN (max 6) and checks confirmations', async () => {
    fakeApi({});
    renderWithApp(<RegisterPage />, { path: '/register' });
    await fill({ 'Transaction PIN': '12ab34567', 'Confirm PIN': '1234', 'Confirm password': 'different1' });
    expect((screen.getByLabelText('Transaction PIN') as HTMLInputElement).value).toBe('123456');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Passwords do not match')).toBeTruthy();
    expect(screen.getByText('PINs do not match')).toBeTruthy();
  });

  it('rejects a bad contact number and a short PIN', async () => {
    fakeApi({});
    renderWithApp(<RegisterPage />, { path: '/register' });
    await fill({ 'Contact number': '12345', 'Transaction PIN': '12', 'Confirm PIN': '12' });
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Invalid contact number')).toBeTruthy();
    expect(screen.getByText('PIN must be at least 4 digits')).toBeTruthy();
  });

  it('sends the payload without confirmations, toasts and goes to /user-not-verified after 1.5 s', async () => {
    const calls = fakeApi({
      '/api/users/register': () => ({ body: { success: true, message: 'User Created Successfully!' } }),
    });
    renderWithApp(<RegisterPage />, {
      path: '/register',
      extraRoutes: [{ path: '/user-not-verified', element: <p>pending page</p> }],
    });
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    // Said once, and without the spec's stray "!.".
    expect(await screen.findByText('Registration successful')).toBeTruthy();
    expect(calls[0]?.body).toEqual({
      firstName: 'Asha',
      lastName: 'Rao',
      email: 'asha@example.in',
      contactNo: '+91 98765 43210',
      identification: 'PAN Card',
      identificationNumber: 'ABCDE1234F',
      address: 'Pune',
      password: 'longenough',
      transactionPin: '1234',
    });
    expect(await screen.findByText('pending page', {}, { timeout: 3000 })).toBeTruthy();
  });

  it('shows the server refusal', async () => {
    fakeApi({
      '/api/users/register': () => ({ status: 409, body: { success: false, message: 'User already exists!' } }),
    });
    renderWithApp(<RegisterPage />, { path: '/register' });
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('User already exists!')).toBeTruthy();
  });
});
