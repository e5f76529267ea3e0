/**
 * The wallet's API as the browser suites use it to set a scene quickly (customers registered
 * and activated by an admin, money moved) before the browser takes over: plain fetch against
 * the running server, the envelope unwrapped, and anything but success failing the test.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

export interface Customer {
  id: string;
  token: string;
  email: string;
  name: string;
}

/** One JSON call to the API; throws with the status and message on anything but success. */
export type ApiCall = <Data = unknown>(
  method: 'GET' | 'POST',
  path: string,
  token?: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<Data>;

/** A 503 with Retry-After (the PIN hashing pool full on a loaded machine) is tried again this often. */
const BUSY_RETRIES = 10;

export function apiClient(base: string): ApiCall {
  return async <Data>(
    method: 'GET' | 'POST',
    path: string,
    token?: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Data> => {
    const send = () =>
      fetch(`${base}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    let response = await send();
    // As a real client does: a 503 that names Retry-After did nothing and asks to come back.
    for (let attempt = 0; attempt < BUSY_RETRIES && isBusy(response); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after')) * 1000));
      response = await send();
    }
    const payload = (await response.json()) as { success: boolean; message: string; data?: Data };
    if (!payload.success) throw new Error(`${method} ${path}: ${response.status} ${payload.message}`);
    return payload.data as Data;
  };
}

function isBusy(response: Response): boolean {
  const retryAfter = Number(response.headers.get('retry-after'));
  return response.status === 503 && Number.isFinite(retryAfter) && retryAfter > 0 && retryAfter <= 30;
}

export interface NewCustomer {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  pin: string;
  address: string;
  contactNo?: string;
  identificationNumber?: string;
}

/**
 * Registers a customer, has the admin whose token this is activate them, and signs them in.
 * A suite whose admin settles the customer's deposits passes the second admin's token
 * (E2E_REVIEWER): money into an account the settling admin activated waits for another admin.
 */
export async function activeCustomer(api: ApiCall, adminToken: string, person: NewCustomer): Promise<Customer> {
  const { firstName, lastName, email, password } = person;
  await api('POST', '/api/users/register', undefined, {
    firstName,
    lastName,
    email,
    contactNo: person.contactNo ?? '+91 98111 22334',
    identification: 'PAN Card',
    identificationNumber: person.identificationNumber ?? 'ABCDE1234F',
    address: person.address,
    password,
    transactionPin: person.pin,
  });
  const users = await api<{ _id: string; email: string }[]>('GET', '/api/users/get-all-users', adminToken);
  const id = users.find((user) => user.email === email)?._id ?? '';
  await api('POST', '/api/users/update-user-verified-status', adminToken, { selectedUser: id, isVerified: true });
  const token = await api<string>('POST', '/api/users/login', undefined, { email, password });
  return { id, token, email, name: `${firstName} ${lastName}` };
}

/** The page fits its viewport's width (phones must never scroll sideways). */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${page.url()} scrolls sideways`).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
}
