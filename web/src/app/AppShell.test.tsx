/**
 * The phone menu of the app shell (a radix Dialog): "Open menu" moves focus into it and Tab
 * (or focus sent elsewhere) stays inside; the page behind is inert; Escape and "Close menu" close it and give focus
 * back to "Open menu"; a link navigates and closes it. The nav keeps its links and the theme
 * switch.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { Toaster } from '../components/ui/Toaster.tsx';
import { createQueryClient } from '../lib/query-client.ts';
import { fakeApi, USER } from '../test/harness.tsx';
import { AppShell } from './AppShell.tsx';
import { ProtectedRoute } from './guards.tsx';
import { SessionProvider } from './session.tsx';

function Page(): ReactElement {
  const location = useLocation();
  return (
    <ProtectedRoute>
      <AppShell>
        <p>page at {location.pathname}</p>
        {/* A live region in the page, as recharts' tooltip is on the dashboard. */}
        <div role="status" aria-live="assertive" />
      </AppShell>
    </ProtectedRoute>
  );
}

async function renderShell(): Promise<HTMLElement> {
  window.localStorage.setItem('token', 'jwt');
  fakeApi({ '/api/users/get-user-info': () => ({ body: { success: true, message: 'ok', data: USER } }) });
  const router = createMemoryRouter(
    [
      { path: '/dashboard', element: <Page /> },
      { path: '/transactions', element: <Page /> },
    ],
    { initialEntries: ['/dashboard'] },
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
  return screen.findByRole('button', { name: 'Open menu' });
}

async function openMenu(): Promise<{ opener: HTMLElement; menu: HTMLElement }> {
  const opener = await renderShell();
  await userEvent.click(opener);
  const menu = await screen.findByRole('dialog', { name: 'Menu' });
  return { opener, menu };
}

describe('the phone menu', () => {
  it('opens as a modal dialog holding the navigation and the theme switch, with focus inside', async () => {
    const { opener, menu } = await openMenu();
    expect(menu.getAttribute('aria-modal')).toBe('true');
    expect(opener.getAttribute('aria-expanded')).toBe('true');
    expect(menu.contains(document.activeElement)).toBe(true);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(menu.contains(nav)).toBe(true);
    for (const name of ['Dashboard', 'Transactions', 'Requests', 'Logout'])
      expect(nav.querySelector(`a[href="/${name.toLowerCase()}"]`)).toBeTruthy();
    const theme = screen.getByRole('group', { name: 'Theme' });
    expect(menu.contains(theme)).toBe(true);
    expect(['System', 'Light', 'Dark'].map((name) => screen.getByRole('button', { name }).textContent)).toEqual([
      'System',
      'Light',
      'Dark',
    ]);
    // The page behind is hidden from assistive technology while the menu is open: inert, since
    // radix's aria-hidden spares the live region and so main, its ancestor.
    const main = screen.getByRole('main', { hidden: true });
    expect(main.closest('[inert]')).not.toBeNull();
    expect(main.closest('[inert]')?.contains(menu)).toBe(false);
  });

  it('keeps Tab, Shift+Tab and focus moved by other means inside the menu', async () => {
    const { menu } = await openMenu();
    // Focus sent behind the menu (as a screen reader's or a script's would be) is pulled back.
    act(() => document.querySelector<HTMLElement>('.skip-link')?.focus());
    expect(menu.contains(document.activeElement)).toBe(true);
    const stops = menu.querySelectorAll('a, button').length;
    for (let press = 0; press < stops + 3; press += 1) {
      await userEvent.tab();
      expect(menu.contains(document.activeElement)).toBe(true);
    }
    for (let press = 0; press < stops + 3; press += 1) {
      await userEvent.tab({ shift: true });
      expect(menu.contains(document.activeElement)).toBe(true);
    }
  });

  it('closes on Escape and gives focus back to "Open menu"', async () => {
    const { opener } = await openMenu();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(opener);
    expect(opener.getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByRole('main').textContent).toBe('page at /dashboard');
    expect(screen.getByRole('main').closest('[inert]')).toBeNull();
  });

  it('closes on "Close menu" and gives focus back to "Open menu"', async () => {
    const { opener } = await openMenu();
    await userEvent.click(screen.getByRole('button', { name: 'Close menu' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(opener);
  });

  it('closes when a link is followed, also a link to the page already shown', async () => {
    const { menu } = await openMenu();
    await userEvent.click(within(menu).getByRole('link', { name: 'Dashboard' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    const again = await screen.findByRole('dialog', { name: 'Menu' });
    await userEvent.click(within(again).getByRole('link', { name: 'Transactions' }));
    expect(await screen.findByText('page at /transactions')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
