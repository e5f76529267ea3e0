/**
 * Session guard (spec section 4): no token -> /login (keeping a deep link as ?next), a
 * loaded user renders the page, a failed user fetch toasts, clears the token and goes to
 * /login; guest pages send a signed-in user on; non-admins are turned away from /users.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
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
