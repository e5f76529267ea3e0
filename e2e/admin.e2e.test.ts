/**
 * The admin and operator screens in a real browser against the real server (started by
 * e2e/global-setup.ts). Two customers of their own are registered, activated (by the second
 * admin, so the admin settles their deposits alone) and funded
 * through the API (the screens under test are the admin's, not the customers'): Meera
 * deposits by UPI (settled by the admin) and pays Kabir. The admin then audits Meera's
 * account (statement rows, CSV download, raw events), reverses the transfer with a reason
 * and sees the reversal in the statement, opens the transfer's events in the ledger
 * explorer with their postings, runs verify (OK), replays a projection to the end, and
 * reads both actions in the audit trail. On the Users page the admin settles a pending deposit
 * from its row (above the threshold: filed, and approved by the second admin on the operations
 * page) and fails another with a reason. A customer is sent away from every admin route.
 * Desktop and phone screenshots of each new screen go to test-output/screenshots/.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { activeCustomer, apiClient, expectNoSidewaysScroll, type Customer } from './helpers/api.ts';
import { launchBrowser, screenshot } from './helpers/browser.ts';
import { serialRun } from './helpers/serial-run.ts';
import { OUTPUT_DIR, SCREENSHOT_DIR } from './helpers/constants.ts';
import { expectText, signIn, textOf, toast } from './helpers/wallet.ts';
import { readUntil } from '../test/wait.ts';

const base = inject('baseUrl');
const ADMIN = { email: inject('adminEmail'), password: inject('adminPassword') };
/** Activates the customers, so that ADMIN settles their deposits alone. */
const REVIEWER = { email: inject('reviewerEmail'), password: inject('reviewerPassword') };
const PASSWORD = 'audit-pass-2026';
const PIN = '5170';
const REASON = 'Paid the wrong person, refund agreed with support';
const REPLAYED = 'money_requests';
const TRANSFER_KEY = `e2e-admin-transfer-${process.pid}`;

let browser: Browser;
let adminToken = '';
let reviewerToken = '';
let meera: Customer;
let kabir: Customer;
let transferId = '';
let admin: Page;

const api = apiClient(base);

async function customer(firstName: string, lastName: string, email: string): Promise<Customer> {
  return activeCustomer(api, reviewerToken, {
    firstName,
    lastName,
    email,
    password: PASSWORD,
    pin: PIN,
    address: '3 Park Street, Kolkata 700016',
  });
}

/** The accounts projection's statement lines are asynchronous: wait (through the API) until it holds `count` lines of `type`. */
async function statementHas(accountId: string, type: string, count = 1): Promise<void> {
  await readUntil(
    `the statement of ${accountId} to hold ${count} ${type}`,
    () =>
      api<{ items: { eventType: string }[] }>(
        'GET',
        `/api/admin/accounts/${accountId}/statement?limit=1000`,
        adminToken,
      ),
    (page) => page.items.filter((line) => line.eventType === type).length >= count,
    { timeoutMs: 15_000, intervalMs: 200 },
  );
}

/** A bank-transfer or UPI deposit request, pending until an admin reviews it; its transaction id. */
async function requestDeposit(who: Customer, amount: number, method: 'bank_transfer' | 'upi'): Promise<string> {
  const details =
    method === 'upi'
      ? { upiDetails: { upiId: 'review@okbank' } }
      : { bankDetails: { accountNumber: '123456789012', ifscCode: 'SBIN0001234', bankName: 'SBI' } };
  const reply = await api<{ transactionId: string }>('POST', '/api/transactions/deposit-funds', who.token, {
    amount,
    reference: 'for review',
    transactionPin: PIN,
    paymentMethod: method,
    ...details,
  });
  return reply.transactionId;
}

const { pageErrors, session, step } = serialRun({ browser: () => browser, base, failurePrefix: 'failure-admin-' });

/** No screen may scroll sideways. */
beforeAll(async () => {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  browser = await launchBrowser();
  adminToken = await api<string>('POST', '/api/users/login', undefined, ADMIN);
  reviewerToken = await api<string>('POST', '/api/users/login', undefined, REVIEWER);
  meera = await customer('Meera', 'Iyer', 'meera.iyer@example.in');
  kabir = await customer('Kabir', 'Shah', 'kabir.shah@example.in');
  const deposit = await api<{ transactionId: string }>('POST', '/api/transactions/deposit-funds', meera.token, {
    amount: 2000,
    reference: 'salary top up',
    transactionPin: PIN,
    paymentMethod: 'upi',
    upiDetails: { upiId: 'meera@okbank' },
  });
  await api('POST', '/api/transactions/settle-deposit', adminToken, { depositId: deposit.transactionId });
  await statementHas(meera.id, 'DepositSettled');
  const transfer = await api<{ transactionId: string }>(
    'POST',
    '/api/transactions/transfer-funds',
    meera.token,
    { receiver: kabir.id, amount: 500, reference: 'concert tickets', transactionPin: PIN },
    { 'idempotency-key': TRANSFER_KEY },
  );
  transferId = transfer.transactionId;
  await statementHas(meera.id, 'TransferCompleted');
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('admin and operator screens in a real browser', () => {
  step('the admin opens the account audit of a user: statement rows, CSV download, raw events', async () => {
    admin = (await session()).page;
    await signIn(admin, ADMIN.email, ADMIN.password);
    await admin.getByRole('link', { name: 'Account audit' }).click();
    await admin.waitForURL('**/admin/audit');
    await admin.getByLabel('Account', { exact: true }).selectOption({ label: `${meera.name} (${meera.email})` });
    await admin.waitForURL(`**/admin/audit?account=${meera.id}`);
    const statement = admin.getByRole('table', { name: 'Statement' });
    const rows = statement.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    const transferRow = rows.filter({ hasText: 'TransferCompleted' });
    expect(await textOf(transferRow.locator('td').nth(3))).toBe(kabir.name);
    expect(await textOf(transferRow.locator('td').nth(4))).toBe('-₹500');
    expect(await textOf(transferRow.locator('td').nth(5))).toBe('₹1,500.00');
    expect(await textOf(rows.filter({ hasText: 'DepositSettled' }).locator('td').nth(5))).toBe('₹2,000.00');

    const download = admin.waitForEvent('download');
    await admin.getByRole('button', { name: 'Download CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`statement-${meera.id}.csv`);
    const csv = readFileSync((await file.path()) ?? '', 'utf8')
      .trim()
      .split('\n');
    expect(csv).toHaveLength(3);
    expect(csv.some((line) => line.includes('TransferCompleted') && line.includes(kabir.name))).toBe(true);

    const events = admin.getByRole('table', { name: 'Account events' });
    await events.locator('tbody tr', { hasText: 'TransferCompleted' }).waitFor();
    const transferEvent = events.locator('tbody tr', { hasText: 'TransferCompleted' });
    expect(await textOf(transferEvent.locator('td').nth(3))).toBe(`transfer-${transferId}`);
    expect(await textOf(transferEvent.locator('td').nth(6))).toBe(TRANSFER_KEY);
    expect(await textOf(transferEvent.locator('td').nth(7))).not.toBe('-');
    await screenshot(admin, SCREENSHOT_DIR, 'admin-audit', 'desktop');
  });

  step('the admin reverses the transfer with a reason and sees the reversal in the statement', async () => {
    const rows = admin.getByRole('table', { name: 'Statement' }).locator('tbody tr');
    await rows
      .filter({ hasText: 'TransferCompleted' })
      .getByRole('button', { name: /^Reverse TransferCompleted/ })
      .click();
    const dialog = admin.getByRole('dialog', { name: 'Reverse transaction' });
    await dialog.getByRole('button', { name: 'Reverse', exact: true }).click();
    await dialog.getByText('A reason of at least 3 characters is required').waitFor();
    await dialog.getByLabel('Reason').fill(REASON);
    await screenshot(admin, SCREENSHOT_DIR, 'dialog-admin-reverse', 'desktop', false);
    await dialog.getByRole('button', { name: 'Reverse', exact: true }).click();
    await toast(admin, 'Transaction reversed');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => rows.count(), { timeout: 15_000, interval: 200 }).toBe(3);
    const reversal = rows.filter({ hasText: 'TransferReversed' });
    expect(await textOf(reversal.locator('td').nth(4))).toBe('+₹500');
    expect(await textOf(reversal.locator('td').nth(5))).toBe('₹2,000.00');
    // The reversed transfer offers no second reversal.
    expect(await rows.filter({ hasText: 'TransferCompleted' }).getByRole('button').count()).toBe(0);
  });

  step("the ledger explorer filters by stream and shows an event's postings", async () => {
    await admin.getByRole('link', { name: 'Ledger explorer' }).click();
    await admin.waitForURL('**/admin/ledger');
    await admin.getByRole('table', { name: 'Ledger events' }).waitFor();
    await screenshot(admin, SCREENSHOT_DIR, 'admin-ledger', 'desktop');
    await admin.getByLabel('Stream').fill(`transfer-${transferId}`);
    await admin.getByRole('button', { name: 'Apply' }).click();
    const rows = admin.getByRole('table', { name: 'Ledger events' }).locator('tbody tr');
    await expect
      .poll(async () =>
        (await rows.allTextContents())
          .map((text) => (text.includes('TransferReversed') ? 'R' : text.includes('TransferCompleted') ? 'C' : '?'))
          .join(''),
      )
      .toBe('CR');
    await rows
      .filter({ hasText: 'TransferReversed' })
      .getByRole('button', { name: /^Open event/ })
      .click();
    const dialog = admin.getByRole('dialog', { name: /^Event \d+$/ });
    const postings = dialog.getByRole('table', { name: 'Postings' }).locator('tbody tr');
    await expect.poll(() => postings.count()).toBe(2);
    expect(await textOf(postings.filter({ hasText: kabir.name }).locator('td').nth(1))).toBe('-₹500');
    expect(await textOf(postings.filter({ hasText: meera.name }).locator('td').nth(1))).toBe('+₹500');
    expect(await textOf(dialog.getByLabel('Event data'))).toContain(REASON);
    await screenshot(admin, SCREENSHOT_DIR, 'dialog-admin-event', 'desktop', false);
    await admin.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  step(
    'operations: verify runs OK, a projection replays to the end, the audit trail lists the actions',
    async () => {
      await admin.getByRole('link', { name: 'Operations' }).click();
      await admin.waitForURL('**/admin/operations');
      await admin.getByRole('table', { name: 'Trial balance by account kind' }).waitFor();
      await admin.getByRole('button', { name: 'Run verify' }).click();
      await toast(admin, 'Ledger verified: no differences');
      await expectText(admin.getByTestId('last-verify'), 'OK');

      await admin.getByRole('button', { name: `Replay ${REPLAYED}` }).click();
      const progress = admin.getByTestId(`replay-${REPLAYED}`);
      await progress.waitFor();
      await expect
        .poll(async () => (await textOf(progress.getByRole('status'))).split(' ')[0], {
          timeout: 30_000,
          interval: 200,
        })
        .toBe('done');
      expect(await progress.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');

      const trail = admin.getByRole('table', { name: 'Audit trail' }).locator('tbody tr');
      await admin.reload();
      await trail.first().waitFor();
      const texts = await trail.allTextContents();
      expect(
        texts.some(
          (text) =>
            text.includes('Reversed transaction') && text.includes(`transfer-${transferId}`) && text.includes(REASON),
        ),
      ).toBe(true);
      expect(texts.some((text) => text.includes('Replayed projection') && text.includes(REPLAYED))).toBe(true);
      expect(texts.some((text) => text.includes('Settled deposit'))).toBe(true);
      await screenshot(admin, SCREENSHOT_DIR, 'admin-operations', 'desktop');
    },
    90_000,
  );

  step(
    'pending deposits: Settle on its row (a second admin approves it above the threshold), Fail with a reason',
    async () => {
      const large = await requestDeposit(meera, 12000, 'bank_transfer');
      const small = await requestDeposit(kabir, 300, 'upi');
      await admin.getByRole('link', { name: 'Users' }).click();
      await admin.waitForURL('**/users');
      const pending = admin.getByRole('table', { name: 'Pending deposits' });
      // The row shows the deposit's transaction id: the one the customer's history shows and the API takes.
      const largeRow = pending.getByRole('row').filter({ hasText: large });
      const smallRow = pending.getByRole('row').filter({ hasText: small });
      await smallRow.waitFor();
      expect(await textOf(largeRow.locator('td').nth(3))).toBe('₹12,000');
      await screenshot(admin, SCREENSHOT_DIR, 'admin-pending-deposits', 'desktop');

      // Above ₹10,000 one admin alone cannot settle: it is filed, and stays pending.
      await largeRow.getByRole('button', { name: 'Settle ₹12,000 from Meera Iyer' }).click();
      await toast(admin, "Awaiting a second admin's approval: amounts above ₹10,000 need two admins");
      const reviewer = (await session('desktop', reviewerToken)).page;
      await reviewer.goto('/admin/operations');
      await reviewer.getByRole('button', { name: `Approve settlement of deposit-${large}` }).click();
      await toast(reviewer, 'Approved: the deposit has been settled');
      await statementHas(meera.id, 'DepositSettled', 2);
      await admin.getByRole('button', { name: 'Refresh', exact: true }).click();
      await largeRow.waitFor({ state: 'detached' });

      await smallRow.getByRole('button', { name: 'Fail ₹300 from Kabir Shah' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Mark deposit as failed' });
      await dialog.getByRole('button', { name: 'Mark failed' }).click();
      await dialog.getByText('A reason of at least 3 characters is required').waitFor();
      await dialog.getByLabel('Reason').fill('The money never arrived');
      await dialog.getByRole('button', { name: 'Mark failed' }).click();
      await toast(admin, 'Deposit marked as failed');
      await dialog.waitFor({ state: 'detached' });
      await smallRow.waitFor({ state: 'detached' });
      const history = await api<{ items: { _id: string; status: string }[] }>(
        'POST',
        '/api/transactions/get-all-transactions-by-user',
        kabir.token,
        { page: 1 },
      );
      expect(history.items.find((row) => row._id === small)?.status).toBe('failed');
    },
    90_000,
  );

  step('a customer is sent away from every admin route and has no admin menu', async () => {
    const customerPage = (await session('desktop', meera.token)).page;
    for (const path of ['/admin/audit', '/admin/ledger', '/admin/operations']) {
      await customerPage.goto(path);
      await customerPage.waitForURL('**/dashboard');
      await toast(customerPage, 'Only administrators can open this page.');
    }
    for (const name of ['Account audit', 'Ledger explorer', 'Operations'])
      expect(await customerPage.getByRole('link', { name }).count()).toBe(0);
  });

  step('phone screenshots of every admin screen, none scrolling sideways', async () => {
    const phone = (await session('phone', adminToken)).page;
    await phone.goto(`/admin/audit?account=${meera.id}`);
    await phone.getByRole('list', { name: 'Statement' }).locator('li').nth(2).waitFor();
    await expectNoSidewaysScroll(phone);
    await screenshot(phone, SCREENSHOT_DIR, 'admin-audit', 'phone');
    await phone.goto('/admin/ledger');
    await phone.getByRole('list', { name: 'Ledger events' }).locator('li').first().waitFor();
    await expectNoSidewaysScroll(phone);
    await screenshot(phone, SCREENSHOT_DIR, 'admin-ledger', 'phone');
    await phone.goto('/admin/operations');
    await phone.getByRole('list', { name: 'Audit trail' }).locator('li').first().waitFor();
    await expectNoSidewaysScroll(phone);
    await screenshot(phone, SCREENSHOT_DIR, 'admin-operations', 'phone');
  });

  step('no page threw an uncaught error', async () => {
    expect(pageErrors).toEqual([]);
  });
});
