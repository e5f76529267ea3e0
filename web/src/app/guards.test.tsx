/**
 * Session guard (spec section 4): no token -> /login (keeping a deep link as ?next), a
 * loaded user renders the page, a refused user fetch (401, 403) toasts, clears the token and
 * goes to /login; a 429 keeps the session, counts down its Retry-After and loads the page
 * once it passed; any other failure keeps the session and offers Try again; guest pages send
 * a signed-in user on; non-admins are turned away from /users.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { RateLimitNotice } from '../components/ui/RateLimitNotice.tsx';
import { Toaster } from '../components/ui/Toaster.tsx';
import { createQueryClient } from '../lib/query-client.ts';
import { fakeApi, USER } from '../test/harness.tsx';
import { AdminRoute, GuestRoute, ProtectedRoute } from './guards.tsx';
import { SessionProvider } from './session.tsx';

function Where({ label }: { label: string }): ReactElement {
  const location = useLocation();
  return (
    <p>
      {label} at {location.pathname}
      {location.search}
    </p>
  );
}

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/login',
        element: (
          <GuestRoute>
            <Where label="login" />
          </GuestRoute>
        ),
      },
      {
        path: '/dashboard',
        element: (
          <ProtectedRoute>
            <Where label="dashboard" />
          </ProtectedRoute>
        ),
      },
      {
        path: '/users',
        element: (
          <ProtectedRoute>
            <AdminRoute>
              <Where label="users" />
            </AdminRoute>
          </ProtectedRoute>
        ),
      },
      {
        path: '/user/:accountNumber',
        element: (
          <ProtectedRoute>
            <Where label="pay" />
          </ProtectedRoute>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Toaster>
        <SessionProvider>
          <RouterProvider router={router} />
        </SessionProvider>
        <RateLimitNotice />
      </Toaster>
    </QueryClientProvider>,
  );
}

describe('route guards', () => {
  it('sends a visitor without a token to /login, keeping the deep link', async () => {
    fakeApi({});
    renderAt('/user/acct-9');
    expect(await screen.findByText('login at /login?next=%2Fuser%2Facct-9')).toBeTruthy();
  });

  it('shows the loading view, then the page, with a token and a user', async () => {
    window.localStorage.setItem('token', 'jwt');
    const calls = fakeApi({
      '/api/users/get-user-info': () => ({ body: { success: true, message: 'ok', data: USER } }),
    });
    renderAt('/dashboard');
    expect(screen.getByText(/loading your/)).toBeTruthy();
    expect(await screen.findByText('dashboard at /dashboard')).toBeTruthy();
    expect(calls[0]?.headers.authorization).toBe('Bearer jwt');
  });

  it('on a failed user fetch: error toast, token removed, /login', async () => {
    window.localStorage.setItem('token', 'expired');
    fakeApi({
      '/api/users/get-user-info': () => ({
        status: 401,
        body: { success: false, message: 'Your session has expired. Please sign in again.' },
      }),
    });
    renderAt('/dashboard');
    expect(await screen.findByText('Your session has expired. Please sign in again.')).toBeTruthy();
    expect(await screen.findByText(/^login at \/login/)).toBeTruthy();
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('on a 403 (suspended account): error toast, token removed, /login', async () => {
    window.localStorage.setItem('token', 'jwt');
    fakeApi({
      '/api/users/get-user-info': () => ({
        status: 403,
        body: { success: false, message: 'Your account is suspended.' },
      }),
    });
    renderAt('/dashboard');
    expect(await screen.findByText('Your account is suspended.')).toBeTruthy();
    expect(await screen.findByText(/^login at \/login/)).toBeTruthy();
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('on a 429: stays signed in, says when the account will load (no full-screen spinner), then loads the page', async () => {
    window.localStorage.setItem('token', 'jwt');
    let refusals = 1;
    const calls = fakeApi({
      '/api/users/get-user-info': () => {
        if (refusals-- > 0)
          return {
            status: 429,
            headers: { 'retry-after': '1' },
            body: { success: false, message: 'Too many requests. Please try again later.', code: 'rate_limited' },
          };
        return { body: { success: true, message: 'ok', data: USER } };
      },
    });
    renderAt('/dashboard');
    expect(await screen.findByText('Too many requests - trying again in 1 s')).toBeTruthy();
    // Issue 41: a reload while limited showed the full-screen "loading your..." for minutes.
    expect(
      screen.getByText('Your account will load in 1 s. You are still signed in; your money and history are safe.'),
    ).toBeTruthy();
    expect(screen.queryByText(/loading your/)).toBeNull();
    expect(window.localStorage.getItem('token')).toBe('jwt');
    expect(await screen.findByText('dashboard at /dashboard', undefined, { timeout: 5_000 })).toBeTruthy();
    expect(screen.queryByText(/Too many requests/)).toBeNull();
    expect(calls.filter((call) => call.path === '/api/users/get-user-info')).toHaveLength(2);
    expect(window.localStorage.getItem('token')).toBe('jwt');
  });

  it('on a server failure: stays signed in and offers Try again', async () => {
    window.localStorage.setItem('token', 'jwt');
    let failures = 2;
    fakeApi({
      '/api/users/get-user-info': () =>
        failures-- > 0
          ? { status: 500, body: { success: false, message: 'Something went wrong on our side.' } }
          : { body: { success: true, message: 'ok', data: USER } },
    });
    renderAt('/dashboard');
    expect(await screen.findByText('Your account could not be loaded', undefined, { timeout: 5_000 })).toBeTruthy();
    expect(window.localStorage.getItem('token')).toBe('jwt');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('dashboard at /dashboard')).toBeTruthy();
  });

  it('sends a signed-in user from /login to the saved deep link', async () => {
    window.localStorage.setItem('token', 'jwt');
    fakeApi({ '/api/users/get-user-info': () => ({ body: { success: true, message: 'ok', data: USER } }) });
    renderAt('/login?next=%2Fuser%2Facct-9');
    expect(await screen.findByText('pay at /user/acct-9')).toBeTruthy();
  });

  it('turns a non-admin away from /users with a message', async () => {
    window.localStorage.setItem('token', 'jwt');
    fakeApi({ '/api/users/get-user-info': () => ({ body: { success: true, message: 'ok', data: USER } }) });
    renderAt('/users');
    expect(await screen.findByText('dashboard at /dashboard')).toBeTruthy();
    expect(screen.getByText('Only administrators can open the Users page.')).toBeTruthy();
  });

  it('lets an admin in', async () => {
    window.localStorage.setItem('token', 'jwt');
    fakeApi({
      '/api/users/get-user-info': () => ({ body: { success: true, message: 'ok', data: { ...USER, isAdmin: true } } }),
    });
    renderAt('/users');
    expect(await screen.findByText('users at /users')).toBeTruthy();
  });
});
