/**
 * What a user does and reads in the wallet's browser app, as the e2e tests need it: register,
 * sign in, read balances and the history table, wait for toasts. Everything waits on UI
 * states (locators, URLs, polled text), never on fixed sleeps.
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { waitUntil } from '../../test/wait.ts';

export interface Person {
  firstName: string;
  lastName: string;
  email: string;
  contactNo: string;
  identification: 'Passport' | "Driver's License" | 'National ID' | 'Aadhaar Card' | 'PAN Card';
  identificationNumber: string;
  address: string;
  password: string;
  pin: string;
}

export interface HistoryRow {
  id: string;
  amount: string;
  type: string;
  sentTo: string;
  reference: string;
  status: string;
}

const POLL = { timeout: 15_000, interval: 150 } as const;

/** Text with collapsed white space (the DOM's text has line breaks between inline parts). */
export async function textOf(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

/** Polls the locator's text until it equals `expected` (the assertion message shows the last value). */
export async function expectText(locator: Locator, expected: string, timeout: number = POLL.timeout): Promise<void> {
  await expect.poll(() => textOf(locator), { timeout, interval: POLL.interval }).toBe(expected);
}

/** Waits for a toast with this text (toasts stack top-right; several may be open). */
export async function toast(page: Page, message: string): Promise<void> {
  await page.getByTestId('toast').filter({ hasText: message }).first().waitFor();
}

/** The Register page, every field, then the pending-verification screen. */
export async function register(page: Page, person: Person): Promise<void> {
  await page.goto('/register');
  const form = page.getByRole('form', { name: 'Register' });
  const fields: [string, string][] = [
    ['First name', person.firstName],
    ['Last name', person.lastName],
    ['Email', person.email],
    ['Contact number', person.contactNo],
    ['Identification number', person.identificationNumber],
    ['Address', person.address],
    ['Password', person.password],
    ['Confirm password', person.password],
    ['Transaction PIN', person.pin],
    ['Confirm PIN', person.pin],
  ];
  for (const [label, value] of fields) await form.getByLabel(label, { exact: true }).fill(value);
  await form.getByLabel('Identification type').selectOption(person.identification);
  await form.getByRole('button', { name: 'Create account' }).click();
  await toast(page, 'Registration successful');
  await page.waitForURL('**/user-not-verified');
  await page.getByRole('heading', { name: 'Verification Required' }).waitFor();
}

/** The sign-in form; the app waits the spec's 1 s after the success toast, then opens /dashboard. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/dashboard');
  await page.getByRole('heading', { name: /^Hi .+, Welcome$/ }).waitFor();
}

export function token(page: Page): Promise<string> {
  return page.evaluate(() => window.localStorage.getItem('token') ?? '');
}

/** The account number on the dashboard (it equals the user's _id). */
export async function accountNumber(page: Page): Promise<string> {
  if (!page.url().endsWith('/dashboard')) await page.goto('/dashboard');
  const value = await textOf(page.locator('.account-number'));
  expect(value).not.toBe('');
  return value;
}

export function dashboardBalance(page: Page): Locator {
  return page.getByTestId('balance');
}

export function transactionsBalance(page: Page): Locator {
  return page.locator('.balance-inline');
}

export function historyCounter(page: Page): Locator {
  return page.locator('.counter');
}

/**
 * Another user's command reaches this page only on a new read: reload until the text is
 * right (the projections are asynchronous across users; this user has no checkpoint to wait on).
 */
export async function reloadUntilText(
  page: Page,
  locator: () => Locator,
  expected: string,
  timeout = 20_000,
): Promise<void> {
  await waitUntil(
    `the page to read ${JSON.stringify(expected)} after a reload`,
    async () => {
      await page.reload();
      await expectText(locator(), expected, 2_000);
      return true;
    },
    { timeoutMs: timeout, intervalMs: 0, retryErrors: true },
  );
}

/** The desktop history table, newest first. */
export async function historyRows(page: Page): Promise<HistoryRow[]> {
  const rows = page.getByRole('table', { name: 'Transactions' }).locator('tbody tr');
  const count = await rows.count();
  const result: HistoryRow[] = [];
  for (let index = 0; index < count; index += 1) {
    const cells = rows.nth(index).locator('td');
    result.push({
      id: (await cells.nth(1).locator('.mono').getAttribute('title')) ?? '',
      amount: await textOf(cells.nth(2)),
      type: await textOf(cells.nth(3)),
      sentTo: await textOf(cells.nth(4)),
      reference: await textOf(cells.nth(5)),
      status: await textOf(cells.nth(6)),
    });
  }
  return result;
}

/** The Recent Activity list of the dashboard: title and amount of each entry. */
export async function recentActivity(page: Page): Promise<{ title: string; amount: string }[]> {
  const items = page.locator('.recent-item');
  const result: { title: string; amount: string }[] = [];
  for (let index = 0; index < (await items.count()); index += 1) {
    result.push({
      title: await textOf(items.nth(index).locator('.recent-title')),
      amount: await textOf(items.nth(index).locator('.amount')),
    });
  }
  return result;
}

/** Verifies a receiver in a dialog with an account field and a Verify button. */
export async function verifyReceiver(scope: Locator, label: string, account: string): Promise<void> {
  await scope.getByLabel(label, { exact: true }).fill(account);
  await scope.getByRole('button', { name: 'Verify', exact: true }).click();
  await scope.locator('.verified-panel').waitFor();
}

/**
 * The confirmation step of a payment dialog (Transfer, Scan to pay, Approve request): reads
 * "Pay ₹X to <verified name>", presses Confirm, types the PIN that is asked only then, and pays.
 */
export async function confirmAndPay(scope: Locator, expected: string, pin: string, payLabel = 'Pay'): Promise<void> {
  await expectText(scope.getByTestId('confirm-pay-title'), expected);
  expect(await scope.getByLabel('Transaction PIN', { exact: true }).count()).toBe(0);
  await scope.getByRole('button', { name: 'Confirm', exact: true }).click();
  const pinField = scope.getByLabel('Transaction PIN', { exact: true });
  await pinField.fill(pin);
  expect(await pinField.getAttribute('type')).toBe('password');
  await scope.getByRole('button', { name: payLabel, exact: true }).click();
}
