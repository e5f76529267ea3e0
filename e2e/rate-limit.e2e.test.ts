/**
 * The rate limit never signs anyone out, and ordinary use never meets it (issue 31), in a
 * real browser against servers of this file's own (the shared e2e server has the limits off):
 *
 * - A server with a small limit (12 calls per 20 s window): a signed-in user whose budget is
 *   spent opens the dashboard, is refused with 429, stays signed in and sees one calm notice
 *   counting down the Retry-After; once it has passed the dashboard loads by itself. The same
 *   mid-visit: a refused history page waits and then shows.
 * - A server at the spec's limits (100 per 15 minutes; 10 per authentication route): one
 *   customer's ordinary day - three visits (dashboard, three history pages and a search typed
 *   letter by letter; a payment; the requests page and accepting a request) - meets no 429,
 *   and every budget it draws on stays under its limit even with the whole day inside one
 *   15-minute window (the test runs in about a minute, so it is).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../test/wait.ts';
import { activeCustomer, apiClient, type ApiCall, type Customer } from './helpers/api.ts';
import { launchBrowser, openPage } from './helpers/browser.ts';
import { startOwnServer, type OwnServer } from './helpers/own-server.ts';
import { confirmAndPay, expectText, historyCounter, signIn, textOf, toast, verifyReceiver } from './helpers/wallet.ts';

const PASSWORD = 'limits-pass-2026';
const PIN = '3141';
const SPEC = { api: 100, auth: 10, accountLookup: 30 } as const;
const WELCOME = /^Hi .+, Welcome$/;
const NOTICE = /^Too many requests - trying again in (\d+) s$/;

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

function person(firstName: string, lastName: string, email: string) {
  return { firstName, lastName, email, password: PASSWORD, pin: PIN, address: '7 MG Road, Pune 411001' };
}

/** Signed-in calls until the server refuses one (429): the seconds its Retry-After names. */
async function spendBudget(base: string, token: string): Promise<number> {
  return waitUntil(
    'the account budget to be spent (429)',
    async () => {
      const reply = await fetch(`${base}/api/users/get-user-info`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      await reply.body?.cancel();
      return reply.status === 429 ? Number(reply.headers.get('retry-after')) : null;
    },
    { intervalMs: 0 },
  );
}

/** The notice's countdown in seconds, or null while it shows nothing. */
async function noticeSeconds(page: Page): Promise<number | null> {
  const match = NOTICE.exec(await textOf(page.locator('.rate-limit-notice')));
  return match ? Number(match[1]) : null;
}

/** The notice is up and counting down: returns once it has shown two decreasing values. */
async function expectCountdown(page: Page): Promise<void> {
  const first = await waitUntil('the rate-limit notice to count down', () => noticeSeconds(page));
  await waitUntil(`the countdown to go below ${first} s`, async () => {
    const now = await noticeSeconds(page);
    return now !== null && now < first;
  });
}

describe('a 429 keeps the user signed in', () => {
  let server: OwnServer;
  let api: ApiCall;
  let asha: Customer;

  beforeAll(async () => {
    server = await startOwnServer('rate-limit-small', {
      RATE_LIMIT_MAX: '12',
      RATE_LIMIT_AUTH_MAX: '20',
      RATE_LIMIT_WINDOW_MS: '20000',
    });
    api = apiClient(server.baseUrl);
    const adminToken = await api<string>('POST', '/api/users/login', undefined, server.admin);
    asha = await activeCustomer(api, adminToken, person('Asha', 'Rao', 'asha.limits@example.in'));
    await api('POST', '/api/transactions/deposit-funds', asha.token, {
      amount: 1000,
      reference: 'card top up',
      transactionPin: PIN,
      paymentMethod: 'card',
      paymentMethodId: 'pm_sandbox_4242',
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('refused at sign-in: stays signed in, sees the countdown, and the dashboard loads after Retry-After', async () => {
    const { page, context } = await openPage(browser, server.baseUrl, 'desktop', asha.token);
    try {
      const retryAfter = await spendBudget(server.baseUrl, asha.token);
      expect(retryAfter).toBeGreaterThan(5);
      await page.goto('/dashboard');
      await expectCountdown(page);
      expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBe(asha.token);
      expect(new URL(page.url()).pathname).toBe('/dashboard');
      await page.getByRole('heading', { name: WELCOME }).waitFor({ timeout: 45_000 });
      await waitUntil('the notice to clear', async () => (await noticeSeconds(page)) === null);
      expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBe(asha.token);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('refused mid-visit: the history waits out the Retry-After and then shows, still signed in', async () => {
    const { page, context } = await openPage(browser, server.baseUrl, 'desktop', asha.token);
    try {
      await page.goto('/dashboard');
      await page.getByRole('heading', { name: WELCOME }).waitFor({ timeout: 45_000 });
      await spendBudget(server.baseUrl, asha.token);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Transactions' }).click();
      await expectCountdown(page);
      await expectText(historyCounter(page), '1 of 1 transactions', 45_000);
      expect(new URL(page.url()).pathname).toBe('/transactions');
      expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBe(asha.token);
    } finally {
      await context.close();
    }
  }, 90_000);
});

/** Every API call a page makes, and every 429 it is answered with. */
function recordCalls(page: Page): { paths: string[]; refused: string[] } {
  const record = { paths: [] as string[], refused: [] as string[] };
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/') || pathname.startsWith('/auth/')) record.paths.push(pathname);
  });
  page.on('response', (response) => {
    if (response.status() === 429) record.refused.push(new URL(response.url()).pathname);
  });
  return record;
}

/** Which limit a call counts against: an authentication route's own, the account lookup's, or the API's. */
function budgetOf(path: string): string {
  if (
    /^\/api\/users\/(login|register|(send|resend|verify)-\w+-otp|reset-password|reset-transaction-pin|verify-transaction-pin|update-transaction-pin)$/.test(
      path,
    ) ||
    path.startsWith('/auth/')
  )
    return path;
  if (path === '/api/transactions/verify-account') return path;
  return 'api';
}

function limitOf(budget: string): number {
  if (budget === 'api') return SPEC.api;
  if (budget === '/api/transactions/verify-account') return SPEC.accountLookup;
  return SPEC.auth;
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Logout' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

async function openNav(page: Page, label: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label }).click();
}

describe("a day of ordinary use stays under the spec's limits", () => {
  let server: OwnServer;
  let api: ApiCall;
  let asha: Customer;
  let ravi: Customer;
  /** Calls made outside the browser from the same address, on the authentication routes. */
  const setupCalls: string[] = [];

  beforeAll(async () => {
    server = await startOwnServer('rate-limit-spec', {});
    api = apiClient(server.baseUrl);
    const adminToken = await api<string>('POST', '/api/users/login', undefined, server.admin);
    asha = await activeCustomer(api, adminToken, person('Asha', 'Rao', 'asha.day@example.in'));
    ravi = await activeCustomer(api, adminToken, person('Ravi', 'Kumar', 'ravi.day@example.in'));
    setupCalls.push(...Array<string>(3).fill('/api/users/login'), ...Array<string>(2).fill('/api/users/register'));
    await api('POST', '/api/transactions/deposit-funds', ravi.token, {
      amount: 50000,
      reference: 'card top up',
      transactionPin: PIN,
      paymentMethod: 'card',
      paymentMethodId: 'pm_sandbox_4242',
    });
    // Three pages of history for Asha, a few of them groceries (Ravi's calls spend Ravi's budget).
    for (let n = 1; n <= 24; n += 1)
      await api('POST', '/api/transactions/transfer-funds', ravi.token, {
        receiver: asha.id,
        amount: 100 + n,
        reference: n % 6 === 0 ? `groceries week ${n / 6}` : `shared bill ${n}`,
        transactionPin: PIN,
      });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('three visits in one window: no 429, every budget under its limit', async () => {
    const { page, context } = await openPage(browser, server.baseUrl, 'desktop');
    const calls = recordCalls(page);
    const perVisit: Record<string, number> = {};
    const visit = async (name: string, body: () => Promise<void>) => {
      const before = calls.paths.length;
      await signIn(page, asha.email, PASSWORD);
      await body();
      await signOut(page);
      perVisit[name] = calls.paths.length - before;
    };
    try {
      await visit('morning: dashboard, three history pages, a search', async () => {
        await openNav(page, 'Transactions');
        await expectText(historyCounter(page), '24 of 24 transactions');
        for (const shown of ['11–20', '21–24']) {
          await page.getByRole('button', { name: 'Next' }).click();
          await page.getByText(`Showing ${shown} of 24 transactions`).waitFor();
        }
        await page.getByPlaceholder('Search transactions...').pressSequentially('groceries', { delay: 120 });
        await expectText(historyCounter(page), '4 of 24 transactions');
        await openNav(page, 'Dashboard');
        await page.getByRole('heading', { name: WELCOME }).waitFor();
      });
      await visit('midday: a payment', async () => {
        await openNav(page, 'Transactions');
        await page.getByRole('button', { name: 'SEND' }).click();
        const send = page.getByRole('dialog', { name: 'Transfer Funds' });
        await verifyReceiver(send, 'Receiver account number', ravi.id);
        await send.getByLabel('Amount (₹)').fill('250.50');
        await send.getByLabel('Reference', { exact: true }).fill('lunch');
        await send.getByRole('button', { name: 'Continue', exact: true }).click();
        await confirmAndPay(send, 'Pay ₹250.50 to Ravi Kumar', PIN);
        await toast(page, 'Transfer completed successfully!');
        await send.waitFor({ state: 'detached' });
        await openNav(page, 'Dashboard');
      });
      await api('POST', '/api/requests/send-request', ravi.token, {
        receiver: asha.id,
        amount: 125.75,
        reference: 'movie tickets',
      });
      await visit('evening: requests, accepting one', async () => {
        await openNav(page, 'Requests');
        await page.getByRole('tab', { name: 'Received (1)' }).waitFor();
        const received = page.getByRole('table', { name: 'Received requests' }).locator('tbody tr');
        await received.getByRole('button', { name: 'Approve' }).click();
        const approve = page.getByRole('dialog', { name: 'Approve request' });
        await confirmAndPay(approve, 'Pay ₹125.75 to Ravi Kumar', PIN, 'Approve and pay');
        await toast(page, 'Request approved successfully');
        await expectText(received.locator('td').nth(4), 'Accepted');
        await openNav(page, 'Dashboard');
      });
    } finally {
      await context.close();
    }

    const spent = new Map<string, number>();
    for (const path of [...setupCalls, ...calls.paths]) spent.set(budgetOf(path), (spent.get(budgetOf(path)) ?? 0) + 1);
    console.info('[rate-limit day] calls per visit', perVisit, 'per budget', Object.fromEntries(spent));
    expect(calls.refused).toEqual([]);
    for (const [budget, count] of spent) expect(count, `${budget}: ${count} calls`).toBeLessThan(limitOf(budget));
    // The day's signed-in calls leave most of the one window's budget: a second tab or a reload is no risk.
    expect(spent.get('api') ?? 0).toBeLessThan(SPEC.api / 2);
  }, 180_000);
});
