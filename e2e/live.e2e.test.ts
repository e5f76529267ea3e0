/**
 * Live updates in a real browser against the real server: a receiver keeps the dashboard
 * open, another customer pays them through the API, and without a reload the balance moves
 * and the toast "₹500 received from Asha Rao" appears (the tab's one event stream,
 * web/src/app/LiveUpdates.tsx). At desktop and phone sizes, each with a receiver of its own.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { formatRupees } from '../contracts/money.ts';
import { activeCustomer, apiClient, type Customer } from './helpers/api.ts';
import { launchBrowser, openPage, VIEWPORTS, type ViewportName } from './helpers/browser.ts';
import { dashboardBalance, expectText, toast } from './helpers/wallet.ts';

const base = inject('baseUrl');
/** Activates the customers. */
const REVIEWER = { email: inject('reviewerEmail'), password: inject('reviewerPassword') };
const PASSWORD = 'live-pass-2026';
const PIN = '6284';
const PAID_RUPEES = 500;

const api = apiClient(base);
let browser: Browser;
let reviewerToken = '';
let sender: Customer;

function customer(firstName: string, lastName: string, email: string): Promise<Customer> {
  return activeCustomer(api, reviewerToken, {
    firstName,
    lastName,
    email,
    password: PASSWORD,
    pin: PIN,
    address: '21 Residency Road, Bengaluru 560025',
  });
}

beforeAll(async () => {
  browser = await launchBrowser();
  reviewerToken = await api<string>('POST', '/api/users/login', undefined, REVIEWER);
  sender = await customer('Asha', 'Rao', 'asha.rao.live@example.in');
  // A sandbox card deposit credits at once. A UPI deposit settled by an admin could wait for
  // a second admin (four eyes over the admin's 24-hour total, which earlier files raise).
  await api('POST', '/api/transactions/deposit-funds', sender.token, {
    amount: 5_000,
    reference: 'savings',
    transactionPin: PIN,
    paymentMethod: 'card',
    paymentMethodId: 'pm_sandbox_4242',
  });
}, 120_000);

afterAll(async () => {
  await browser.close();
});

/** Opens the dashboard and waits until the tab's event stream is open (the server joined it). */
async function openDashboard(viewport: ViewportName, token: string): Promise<{ page: Page; errors: string[] }> {
  const { page } = await openPage(browser, base, viewport, token);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const stream = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/users/events');
  await page.goto('/dashboard');
  expect((await stream).status()).toBe(200);
  // The dashboard shows the balance to the paisa.
  await expectText(dashboardBalance(page), '₹0.00');
  return { page, errors };
}

for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
  it(`a payment from another user appears on the receiver's open dashboard, with its toast (${viewport})`, async () => {
    const receiver = await customer('Ravi', 'Menon', `ravi.menon.live.${viewport}@example.in`);
    const { page, errors } = await openDashboard(viewport, receiver.token);
    let navigations = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations += 1;
    });

    await api('POST', '/api/transactions/transfer-funds', sender.token, {
      receiver: receiver.id,
      amount: PAID_RUPEES,
      reference: 'dinner',
      transactionPin: PIN,
    });

    await toast(page, `${formatRupees(PAID_RUPEES)} received from ${sender.name}`);
    await expectText(dashboardBalance(page), `${formatRupees(PAID_RUPEES)}.00`);
    expect(navigations, 'the page was not reloaded').toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });
}
