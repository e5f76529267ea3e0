/**
 * Test harness: a fake API (routes by path, records every call with its body and headers)
 * installed as `fetch`, and a render helper with the app's providers and a router.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import { Toaster } from '../components/ui/Toaster.tsx';
import { createQueryClient } from '../lib/query-client.ts';

export interface RecordedCall {
  path: string;
  method: string;
  /** The query string's parameters. */
  query: Record<string, string>;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

type Handler = (call: RecordedCall) => { status?: number; body: unknown; headers?: Record<string, string> };

export function fakeApi(routes: Record<string, Handler>): RecordedCall[] {
  const calls: RecordedCall[] = [];
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const call: RecordedCall = {
      path: url.pathname,
      method: init.method ?? 'GET',
      query: Object.fromEntries(url.searchParams),
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {},
      headers: (init.headers ?? {}) as Record<string, string>,
    };
    calls.push(call);
    const handler = routes[url.pathname];
    const reply = handler ? handler(call) : { status: 404, body: { success: false, message: 'Not found' } };
    return new Response(JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'content-type': 'application/json', ...reply.headers },
    });
  });
  return calls;
}

export function renderWithApp(
  element: ReactElement,
  options: { path?: string; extraRoutes?: { path: string; element: ReactElement }[]; client?: QueryClient } = {},
): RenderResult {
  const path = options.path ?? '/';
  const router = createMemoryRouter([{ path: path.split(/[?#]/)[0] ?? '/', element }, ...(options.extraRoutes ?? [])], {
    initialEntries: [path],
  });
  return render(
    <QueryClientProvider client={options.client ?? createQueryClient()}>
      <Toaster>
        <RouterProvider router={router} />
      </Toaster>
    </QueryClientProvider>,
  );
}

export const USER = {
  _id: 'user-asha-1',
  firstName: 'Asha',
  lastName: 'Rao',
  email: 'asha@example.in',
  contactNo: '+91 98765 43210',
  identification: 'PAN Card',
  identificationNumber: 'ABCDE1234F',
  address: 'Pune',
  balance: 1000,
  isAdmin: false,
  isVerified: true,
  authProvider: 'local' as const,
  pinSet: true,
  createdAt: '2026-01-01T00:00:00.000Z',
};
