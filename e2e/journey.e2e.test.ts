/**
 * The wallet end to end in a real browser (Debian chromium via playwright-core) against the
 * real server (`node bin/server.ts`, started by e2e/global-setup.ts on a fresh database).
 * One story, serial steps; a failed step stops the ones after it (they would only repeat
 * the failure) and leaves a screenshot of every open page under test-output/e2e/.
 *
 * Two customers register through the Register page, a second admin (the reviewer) activates
 * them on the Users page; Asha deposits by card (sandbox) and by UPI (pending until the admin
 * settles it: alone, since another admin activated her),
 * pays Vikram after verifying his account, Vikram asks her for money and she approves with
 * her PIN; she pays him again by uploading his payment QR in Scan to pay, and once more
 * with the keyboard alone. Balances and histories of both are checked on the Transactions
 * page and the dashboard in en-IN rupees after every move. Then the guards, and a desktop
 * and a phone screenshot of every screen and dialog.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { HIDE_TOASTS, launchBrowser, screenshot, VIEWPORTS, type ViewportName } from './helpers/browser.ts';
import { serialRun } from './helpers/serial-run.ts';
import { HERO_DIR, OUTPUT_DIR, SCREENSHOT_DIR } from './helpers/constants.ts';
import {
  accountNumber,
  dashboardBalance,
  expectText,
  historyCounter,
  historyRows,
  recentActivity,
  register,
  reloadUntilText,
  signIn,
  toast,
  token,
  transactionsBalance,
  verifyReceiver,
  confirmAndPay,
  type Person,
} from './helpers/wallet.ts';

const base = inject('baseUrl');
const ADMIN = { email: inject('adminEmail'), password: inject('adminPassword') };
/** Activates the customers: money into an account the settling admin activated would wait for another admin. */
const REVIEWER = { email: inject('reviewerEmail'), password: inject('reviewerPassword') };

const ASHA: Person = {
  firstName: 'Asha',
  lastName: 'Rao',
  email: 'asha.rao@example.in',
  contactNo: '+91 98450 12345',
  identification: 'PAN Card',
  identificationNumber: 'ABCPR1234K',
  address: '12 MG Road, Bengaluru 560001',
  password: 'asha-pass-2026',
  pin: '4826',
};
const VIKRAM: Person = {
  firstName: 'Vikram',
  lastName: 'Nair',
  email: 'vikram.nair@example.in',
  contactNo: '+91 98860 54321',
  identification: 'Aadhaar Card',
  identificationNumber: '4321 8765 2109',
  address: '7 Marine Drive, Kochi 682031',
  password: 'vikram-pass-26',
  pin: '7391',
};

let browser: Browser;
let asha: Page;
let vikram: Page;
let admin: Page;
let ashaId = '';
let vikramId = '';

const { sessions, pageErrors, session, step } = serialRun({ browser: () => browser, base, failurePrefix: 'failure-' });

beforeAll(async () => {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** The Transactions page of `page`, its balance and counter as expected. */
async function expectTransactions(page: Page, balance: string, counter: string): Promise<void> {
  if (!page.url().endsWith('/transactions')) await page.goto('/transactions');
  await expectText(transactionsBalance(page), balance);
  await expectText(historyCounter(page), counter);
}

function dialog(page: Page, title: string): Locator {
  return page.getByRole('dialog', { name: title });
}

/** A transfer through the SEND dialog with account verification and the confirmation step. */
async function transfer(
  page: Page,
  to: { account: string; name: string },
  amount: string,
  reference: string,
  pin: string,
  confirmation: string,
): Promise<void> {
  await page.getByRole('button', { name: 'SEND' }).click();
  const send = dialog(page, 'Transfer Funds');
  await verifyReceiver(send, 'Receiver account number', to.account);
  await expectText(send.locator('.verified-panel dd').first(), to.name);
  expect(await send.getByLabel('Receiver account number').getAttribute('readonly')).not.toBeNull();
  await send.getByLabel('Amount (₹)').fill(amount);
  await send.getByLabel('Reference', { exact: true }).fill(reference);
  await send.getByRole('button', { name: 'Continue', exact: true }).click();
  await confirmAndPay(send, confirmation, pin);
  await toast(page, 'Transfer completed successfully!');
  await send.waitFor({ state: 'detached' });
}

describe('the wallet in a real browser', () => {
  step('two customers register through the Register page and see the pending-verification screen', async () => {
    asha = (await session()).page;
    await register(asha, ASHA);
    await asha.getByText('Verification takes an estimated 1-2 business days.', { exact: false }).waitFor();
    await asha.getByRole('link', { name: 'Try Logging in Again' }).waitFor();
    await screenshot(asha, SCREENSHOT_DIR, 'user-not-verified', 'desktop');

    const phone = (await session('phone')).page;
    await register(phone, VIKRAM);
    await screenshot(phone, SCREENSHOT_DIR, 'user-not-verified', 'phone');
    await phone.context().close();
    sessions.splice(
      sessions.findIndex((opened) => opened.page === phone),
      1,
    );

    // Not verified yet: signing in leads back to the pending screen.
    await asha.goto('/login');
    await asha.getByLabel('Email').fill(ASHA.email);
    await asha.getByLabel('Password', { exact: true }).fill(ASHA.password);
    await asha.getByRole('button', { name: 'Sign in' }).click();
    await toast(asha, 'Your account is awaiting verification by an administrator.');
    await asha.waitForURL('**/user-not-verified');
  });

  step('the reviewer (a second admin) activates both on the Users page', async () => {
    const reviewer = (await session()).page;
    await signIn(reviewer, REVIEWER.email, REVIEWER.password);
    await reviewer.getByRole('link', { name: 'Users' }).click();
    await reviewer.waitForURL('**/users');
    await reviewer.getByRole('tab', { name: 'Unverified (2)' }).waitFor();
    for (const person of [ASHA, VIKRAM]) {
      const name = `${person.firstName} ${person.lastName}`;
      await reviewer.getByRole('button', { name: `Activate ${name}` }).click();
      // The identity check (issue 41): Activate waits for the document check to be confirmed.
      const check = reviewer.getByRole('dialog', { name: 'Check identity' });
      await check.getByLabel('I have checked the document against these details').check();
      await check.getByRole('button', { name: 'Activate', exact: true }).click();
      await toast(reviewer, 'User verified successfully');
      await reviewer.getByRole('button', { name: `Suspend ${name}` }).waitFor();
    }
    await reviewer.getByRole('tab', { name: 'Unverified (0)' }).waitFor();
    await reviewer.getByRole('tab', { name: 'Verified (4)' }).waitFor();
    await reviewer.context().close();
    sessions.splice(
      sessions.findIndex((opened) => opened.page === reviewer),
      1,
    );

    // The admin, who settles deposits, on the same page.
    admin = (await session()).page;
    await signIn(admin, ADMIN.email, ADMIN.password);
    await admin.getByRole('link', { name: 'Users' }).click();
    await admin.waitForURL('**/users');
    await admin.getByRole('tab', { name: 'Verified (4)' }).waitFor();
  });

  step('both sign in; new wallets hold ₹0 and no history', async () => {
    await signIn(asha, ASHA.email, ASHA.password);
    await expectText(asha.getByRole('heading', { level: 1 }), 'Hi Asha, Welcome');
    await expectText(dashboardBalance(asha), '₹0.00');
    await asha.getByText('No recent transactions').waitFor();
    ashaId = await accountNumber(asha);

    vikram = (await session()).page;
    await signIn(vikram, VIKRAM.email, VIKRAM.password);
    vikramId = await accountNumber(vikram);
    expect(vikramId).not.toBe(ashaId);
    // Profile fields as registered.
    const profile = vikram.locator('.profile-list');
    for (const value of [
      VIKRAM.firstName,
      VIKRAM.lastName,
      VIKRAM.email,
      VIKRAM.contactNo,
      VIKRAM.identification,
      // The customer's own ID number, masked but for its last four (issue 41).
      'XXXX XXXX 2109',
    ]) {
      await profile.getByText(value, { exact: true }).waitFor();
    }
  });

  step('card deposit with the sandbox card 4242 4242 4242 4242 credits at once', async () => {
    await expectTransactions(asha, '₹0.00', '0 of 0 transactions');
    await asha.getByText('No transactions found').waitFor();
    await asha.getByRole('button', { name: 'DEPOSIT' }).click();
    const deposit = dialog(asha, 'Deposit Funds');
    await deposit.getByLabel('Amount (₹)').fill('1500');
    await deposit.getByLabel('Reference', { exact: true }).fill('first top up');
    await deposit.getByLabel('Transaction PIN', { exact: true }).fill(ASHA.pin);
    await deposit.getByLabel(/^Card/).check();
    const pay = deposit.getByRole('button', { name: 'Pay ₹1,500' });
    expect(await pay.isDisabled()).toBe(true);
    await deposit.getByLabel('Card number').fill('4242424242424242');
    expect(await deposit.getByLabel('Card number').inputValue()).toBe('4242 4242 4242 4242');
    await deposit.getByLabel('Expiry (MM/YY)').fill('1230');
    await deposit.getByLabel('CVC').fill('123');
    await pay.click();
    await toast(asha, 'Card deposit successful! Your account has been credited.');
    await deposit.waitFor({ state: 'detached' });
    await expectTransactions(asha, '₹1,500.00', '1 of 1 transactions');
    expect(await historyRows(asha)).toEqual([
      expect.objectContaining({
        amount: '+₹1,500',
        type: 'Deposit',
        sentTo: 'Self',
        reference: 'first top up',
        status: 'Success',
      }),
    ]);
  });

  let upiDepositId = '';
  step('UPI deposit stays pending until the admin settles it', async () => {
    await asha.getByRole('button', { name: 'DEPOSIT' }).click();
    const deposit = dialog(asha, 'Deposit Funds');
    await deposit.getByLabel('Amount (₹)').fill('250');
    await deposit.getByLabel('Reference', { exact: true }).fill('upi top up');
    await deposit.getByLabel('Transaction PIN', { exact: true }).fill(ASHA.pin);
    await deposit.getByLabel(/^UPI/).check();
    await deposit.getByLabel('UPI ID').fill('Asha.Rao@okaxis');
    expect(await deposit.getByLabel('UPI ID').inputValue()).toBe('asha.rao@okaxis');
    await deposit.getByText('Bank transfer and UPI requests are processed in 1-2 business days.').waitFor();
    await deposit.getByRole('button', { name: 'Submit deposit' }).click();
    await toast(asha, 'Deposit request submitted successfully!');
    // The dialog now says where to pay (the collection account, the UPI QR); Done closes it.
    await deposit.getByTestId('deposit-instructions').waitFor();
    await deposit.getByRole('button', { name: 'Done' }).click();
    await deposit.waitFor({ state: 'detached' });
    await expectTransactions(asha, '₹1,500.00', '2 of 2 transactions');
    const [upi] = await historyRows(asha);
    expect(upi).toEqual(
      expect.objectContaining({ amount: '+₹250', type: 'Deposit', reference: 'upi top up', status: 'Pending' }),
    );
    upiDepositId = upi?.id ?? '';
    expect(upiDepositId).not.toBe('');

    // The admin settles it from the pending deposits on the Users page: its row shows the id of Asha's history.
    await admin.reload();
    const pending = admin.getByRole('table', { name: 'Pending deposits' });
    const row = pending.getByRole('row').filter({ hasText: upiDepositId });
    await row.getByRole('button', { name: 'Settle ₹250 from Asha Rao' }).click();
    await toast(admin, 'Deposit settled: the wallet has been credited');
    await row.waitFor({ state: 'detached' });

    await reloadUntilText(asha, () => transactionsBalance(asha), '₹1,750.00');
    await expectText(historyCounter(asha), '2 of 2 transactions');
    expect((await historyRows(asha)).map((row) => [row.amount, row.status])).toEqual([
      ['+₹250', 'Success'],
      ['+₹1,500', 'Success'],
    ]);
  });

  step("Asha verifies Vikram's account in the Transfer dialog and pays him ₹400", async () => {
    // A wrong account is refused by the verification, and nothing can be paid before it.
    await asha.getByRole('button', { name: 'SEND' }).click();
    const send = dialog(asha, 'Transfer Funds');
    await send.getByLabel('Receiver account number').fill('no-such-account');
    await send.getByRole('button', { name: 'Verify', exact: true }).click();
    await send.locator('.field-error').first().waitFor();
    await send.getByRole('button', { name: 'Cancel' }).click();
    await send.waitFor({ state: 'detached' });

    await transfer(
      asha,
      { account: vikramId, name: 'Vikram Nair' },
      '400',
      'dinner split',
      ASHA.pin,
      'Pay ₹400.00 to Vikram Nair',
    );
    await expectTransactions(asha, '₹1,350.00', '3 of 3 transactions');
    expect((await historyRows(asha))[0]).toEqual(
      expect.objectContaining({
        amount: '−₹400',
        type: 'Debit',
        sentTo: `To Vikram Nair (${vikramId.slice(0, 8)})`,
        reference: 'dinner split',
        status: 'Success',
      }),
    );

    await vikram.goto('/transactions');
    await reloadUntilText(vikram, () => transactionsBalance(vikram), '₹400.00');
    await expectText(historyCounter(vikram), '1 of 1 transactions');
    expect(await historyRows(vikram)).toEqual([
      expect.objectContaining({
        amount: '+₹400',
        type: 'Credit',
        sentTo: `From Asha Rao (${ashaId.slice(0, 8)})`,
        reference: 'dinner split',
        status: 'Success',
      }),
    ]);
  });

  step('Vikram requests ₹125.75 from Asha; she approves it with her PIN on the Requests page', async () => {
    await vikram.goto('/requests');
    await vikram.getByRole('tab', { name: 'Sent (0)' }).waitFor();
    await vikram.getByRole('button', { name: 'REQUEST MONEY' }).click();
    const request = dialog(vikram, 'Send Request');
    expect(await request.getByRole('button', { name: 'Send Request', exact: true }).isDisabled()).toBe(true);
    await verifyReceiver(request, 'Account Number', ashaId);
    await request.getByText('Account Verified', { exact: true }).waitFor();
    await request.getByRole('button', { name: 'Verified', exact: true }).waitFor();
    await request.getByLabel('Amount (₹)').fill('125.75');
    await request.getByLabel('Reference', { exact: true }).fill('movie tickets');
    await request.getByRole('button', { name: 'Send Request', exact: true }).click();
    await toast(vikram, 'Request sent successfully!');
    await request.waitFor({ state: 'detached' });
    await vikram.getByRole('tab', { name: 'Sent (1)' }).click();
    const sentRow = vikram.getByRole('table', { name: 'Sent requests' }).locator('tbody tr');
    await expectText(sentRow.locator('td').nth(1), '₹125.75');
    await expectText(sentRow.locator('td').nth(2), 'Asha Rao');
    await expectText(sentRow.locator('td').nth(4), 'Pending');

    await asha.goto('/requests');
    await reloadUntilText(asha, () => asha.getByRole('tab', { selected: true }), 'Received (1)');
    const received = asha.getByRole('table', { name: 'Received requests' }).locator('tbody tr');
    await expectText(received.locator('td').nth(2), 'Vikram Nair');
    await received.getByRole('button', { name: 'Approve' }).click();
    const approve = dialog(asha, 'Approve request');
    await expectText(approve.getByTestId('confirm-pay-title'), 'Pay ₹125.75 to Vikram Nair');
    await approve.getByRole('button', { name: 'Confirm', exact: true }).click();
    await approve.getByRole('button', { name: 'Approve and pay' }).click();
    await approve.getByText('Transaction PIN is required').waitFor();
    await approve.getByLabel('Transaction PIN', { exact: true }).fill(ASHA.pin);
    await approve.getByRole('button', { name: 'Approve and pay' }).click();
    await toast(asha, 'Request approved successfully');
    await approve.waitFor({ state: 'detached' });
    await expectText(received.locator('td').nth(4), 'Accepted');
  });

  step('both histories and balances are right on the Transactions page and the dashboard', async () => {
    await expectTransactions(asha, '₹1,224.25', '4 of 4 transactions');
    expect((await historyRows(asha)).map(({ amount, type, status }) => ({ amount, type, status }))).toEqual([
      { amount: '−₹125.75', type: 'Debit', status: 'Success' },
      { amount: '−₹400', type: 'Debit', status: 'Success' },
      { amount: '+₹250', type: 'Deposit', status: 'Success' },
      { amount: '+₹1,500', type: 'Deposit', status: 'Success' },
    ]);
    // Search (server-side) and the type filter.
    await asha.getByPlaceholder('Search transactions...').fill('dinner');
    await expectText(historyCounter(asha), '1 of 4 transactions');
    // What the row shows: the other party's name (either word, any case) and the amount as typed.
    await asha.getByPlaceholder('Search transactions...').fill('nair');
    await expectText(historyCounter(asha), '2 of 4 transactions');
    // Read in one go: historyRows reads row by row, and a row that goes as the list narrows would stall it.
    const amounts = async () =>
      (await asha.getByRole('table', { name: 'Transactions' }).locator('tbody tr td:nth-child(3)').allInnerTexts()).map(
        (text) => text.trim(),
      );
    await asha.getByPlaceholder('Search transactions...').fill('₹125.75');
    await expect.poll(amounts, { timeout: 15_000 }).toEqual(['−₹125.75']);
    await expectText(historyCounter(asha), '1 of 4 transactions');
    await asha.getByPlaceholder('Search transactions...').fill('1,500');
    await expect.poll(amounts, { timeout: 15_000 }).toEqual(['+₹1,500']);
    await expectText(historyCounter(asha), '1 of 4 transactions');
    await asha.getByPlaceholder('Search transactions...').fill('');
    await asha.getByLabel('Type filter').selectOption('debit');
    await expectText(historyCounter(asha), '2 of 4 transactions');
    await asha.getByLabel('Type filter').selectOption('all');
    await expectText(asha.locator('.pagination span'), 'Showing 1–4 of 4 transactions');
    // The same search on a phone, where the rows are cards.
    const phone = await session('phone', await token(asha));
    await phone.page.goto('/transactions');
    await phone.page.getByPlaceholder('Search transactions...').fill('VIKRAM');
    await expectText(historyCounter(phone.page), '2 of 4 transactions');
    // With the rupee sign: a bare "400" also finds ids that end in it (ids are searched, and
    // their tails are random), so 1 run in ~1,400 would show a second row.
    await phone.page.getByPlaceholder('Search transactions...').fill('₹400');
    await expectText(historyCounter(phone.page), '1 of 4 transactions');
    await phone.context.close();
    sessions.splice(
      sessions.findIndex((opened) => opened.page === phone.page),
      1,
    );

    await asha.goto('/dashboard');
    await expectText(dashboardBalance(asha), '₹1,224.25');
    await expect
      .poll(() => recentActivity(asha), { timeout: 15_000 })
      .toEqual([
        { title: 'Paid request from Vikram Nair', amount: '−₹125.75' },
        { title: 'Paid to Vikram Nair', amount: '−₹400' },
        { title: 'Added by UPI', amount: '+₹250' },
      ]);
    await asha.getByRole('button', { name: 'Hide balance' }).click();
    await expectText(dashboardBalance(asha), '****');
    await asha.getByRole('button', { name: 'Show balance' }).click();
    await expectText(dashboardBalance(asha), '₹1,224.25');

    await vikram.goto('/transactions');
    await reloadUntilText(vikram, () => transactionsBalance(vikram), '₹525.75');
    await expectText(historyCounter(vikram), '2 of 2 transactions');
    expect((await historyRows(vikram)).map(({ amount, type }) => ({ amount, type }))).toEqual([
      { amount: '+₹125.75', type: 'Credit' },
      { amount: '+₹400', type: 'Credit' },
    ]);
    await vikram.goto('/dashboard');
    await expectText(dashboardBalance(vikram), '₹525.75');
    await expect
      .poll(() => recentActivity(vikram), { timeout: 15_000 })
      .toEqual([
        { title: 'Request paid by Asha Rao', amount: '+₹125.75' },
        { title: 'Received from Asha Rao', amount: '+₹400' },
      ]);
  });

  step("scan to pay: Asha uploads an image of Vikram's payment QR and pays ₹50", async () => {
    // Vikram's own QR, as the server generates it for him.
    const reply = await fetch(`${base}/api/users/generate-qr`, {
      headers: { authorization: `Bearer ${await token(vikram)}` },
    });
    expect(reply.status).toBe(200);
    const body = (await reply.json()) as { success: boolean; data: string };
    expect(body.data).toMatch(/^data:image\/png;base64,/);
    const qrPath = `${OUTPUT_DIR}/vikram-qr.png`;
    writeFileSync(qrPath, Buffer.from(body.data.replace(/^data:image\/png;base64,/, ''), 'base64'));

    await asha.goto('/transactions');
    await expectText(transactionsBalance(asha), '₹1,224.25');
    await asha.getByRole('button', { name: 'SCAN TO PAY' }).click();
    const scan = dialog(asha, 'Scan to Pay');
    expect(await scan.getByRole('button', { name: 'Pay Now' }).isDisabled()).toBe(true);
    await scan.getByRole('tab', { name: 'Upload image' }).click();
    await scan.getByText('PNG, JPG, JPEG up to 10MB').waitFor();
    await scan.getByLabel('Upload QR code image').setInputFiles(qrPath);
    await toast(asha, 'QR Code scanned and account verified successfully!');
    const panel = scan.locator('.verified-panel');
    await panel.getByText('Vikram Nair', { exact: true }).waitFor();
    await panel.getByText(vikramId, { exact: true }).waitFor();
    await scan.getByRole('button', { name: 'Scan different QR code' }).waitFor();
    await scan.getByLabel('Amount (₹)').fill('50');
    await scan.getByLabel('Reference', { exact: true }).fill('chai and snacks');
    await expectText(scan.locator('.field-counter'), '15/200');
    await scan.getByRole('button', { name: 'Pay Now' }).click();
    await confirmAndPay(scan, 'Pay ₹50.00 to Vikram Nair', ASHA.pin);
    await toast(asha, 'Transfer completed successfully!');
    await scan.waitFor({ state: 'detached' });
    await expectTransactions(asha, '₹1,174.25', '5 of 5 transactions');
    expect((await historyRows(asha))[0]).toEqual(
      expect.objectContaining({ amount: '−₹50', type: 'Debit', reference: 'chai and snacks' }),
    );

    await vikram.goto('/transactions');
    await reloadUntilText(vikram, () => transactionsBalance(vikram), '₹575.75');
    await expectText(historyCounter(vikram), '3 of 3 transactions');
  });

  step(
    'keyboard only: Tab to SEND, Space opens it, fill, Enter verifies, Enter continues, confirms and pays',
    async () => {
      await asha.goto('/transactions');
      await expectText(transactionsBalance(asha), '₹1,174.25');
      const focused = () =>
        asha.evaluate(() => {
          const active = document.activeElement as HTMLInputElement | null;
          if (!active || active === document.body) return '';
          return (active.labels?.[0]?.textContent ?? active.getAttribute('aria-label') ?? active.textContent ?? '')
            .replace(/\s+/g, ' ')
            .trim();
        });
      async function tabTo(label: string, limit: number): Promise<void> {
        for (let presses = 0; presses < limit; presses += 1) {
          if ((await focused()) === label) return;
          await asha.keyboard.press('Tab');
        }
        expect(await focused()).toBe(label);
      }
      await tabTo('SEND', 30);
      await asha.keyboard.press('Space');
      const send = dialog(asha, 'Transfer Funds');
      await send.waitFor();
      await tabTo('Receiver account number', 5);
      await asha.keyboard.type(vikramId);
      await asha.keyboard.press('Tab');
      expect(await focused()).toBe('Verify');
      await asha.keyboard.press('Enter');
      await send.locator('.verified-panel').waitFor();
      // Verified: focus moves on to the amount by itself.
      await asha.waitForFunction(() => document.activeElement?.id === 'pay-amount');
      await asha.keyboard.type('24.25');
      await asha.keyboard.press('Tab');
      expect(await focused()).toBe('Reference');
      await asha.keyboard.type('keyboard pay');
      await tabTo('Continue', 3);
      await asha.keyboard.press('Enter');
      // The confirmation takes focus on Confirm; after it, the PIN field has it.
      await expectText(send.getByTestId('confirm-pay-title'), 'Pay ₹24.25 to Vikram Nair');
      expect(await focused()).toBe('Confirm');
      await asha.keyboard.press('Enter');
      await asha.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.type === 'password');
      expect(await focused()).toBe('Transaction PIN');
      await asha.keyboard.type(ASHA.pin);
      await asha.keyboard.press('Enter');
      await toast(asha, 'Transfer completed successfully!');
      await send.waitFor({ state: 'detached' });
      await expectTransactions(asha, '₹1,150.00', '6 of 6 transactions');
      expect((await historyRows(asha))[0]).toEqual(
        expect.objectContaining({ amount: '−₹24.25', type: 'Debit', reference: 'keyboard pay' }),
      );
    },
  );

  step('final balances: ₹1,150 for Asha and ₹600 for Vikram on both screens', async () => {
    await asha.goto('/dashboard');
    await expectText(dashboardBalance(asha), '₹1,150.00');
    await vikram.goto('/transactions');
    await reloadUntilText(vikram, () => transactionsBalance(vikram), '₹600.00');
    await expectText(historyCounter(vikram), '4 of 4 transactions');
    expect((await historyRows(vikram)).map((row) => row.amount)).toEqual(['+₹24.25', '+₹50', '+₹125.75', '+₹400']);
    await vikram.goto('/dashboard');
    await expectText(dashboardBalance(vikram), '₹600.00');
  });

  step('a second request is left pending for the screenshots, then Asha rejects it (no money moves)', async () => {
    await vikram.goto('/requests');
    await vikram.getByRole('button', { name: 'REQUEST MONEY' }).click();
    const request = dialog(vikram, 'Send Request');
    await verifyReceiver(request, 'Account Number', ashaId);
    await request.getByLabel('Amount (₹)').fill('10');
    await request.getByLabel('Reference', { exact: true }).fill('parking fee');
    await request.getByRole('button', { name: 'Send Request', exact: true }).click();
    await toast(vikram, 'Request sent successfully!');
    await asha.goto('/requests');
    await reloadUntilText(asha, () => asha.getByRole('tab', { selected: true }), 'Received (2)');
    await expectText(asha.locator('.tile').filter({ hasText: 'Pending' }).locator('.tile-value'), '1');
    await captureRequests();
    const pending = asha
      .getByRole('table', { name: 'Received requests' })
      .locator('tbody tr', { hasText: 'parking fee' });
    await pending.getByRole('button', { name: 'Reject' }).click();
    await dialog(asha, 'Reject request').getByRole('button', { name: 'Reject' }).click();
    await toast(asha, 'Request rejected successfully');
    await expectText(pending.locator('td').nth(4), 'Rejected');
    await asha.goto('/dashboard');
    await expectText(dashboardBalance(asha), '₹1,150.00');
  });

  step(
    'guards: signed out /dashboard -> /login; a customer on /users -> /dashboard with a message; ?error=oauth_failed',
    async () => {
      const guest = (await session()).page;
      await guest.goto('/dashboard');
      await guest.waitForURL('**/login');
      await guest.getByRole('form', { name: 'Sign in' }).waitFor();

      await asha.goto('/users');
      await asha.waitForURL('**/dashboard');
      await toast(asha, 'Only administrators can open the Users page.');
      expect(await asha.getByRole('link', { name: 'Users' }).count()).toBe(0);

      await guest.goto('/login?error=oauth_failed');
      await toast(guest, 'Google authentication failed. Please try again.');

      // A signed-in user on a guest page goes to the dashboard.
      await asha.goto('/login');
      await asha.waitForURL('**/dashboard');
    },
  );

  step(
    'a desktop and a phone screenshot of every screen and dialog',
    async () => {
      await captureEverything('desktop');
      await captureEverything('phone');
    },
    180_000,
  );

  step('no page threw an uncaught error', async () => {
    expect(pageErrors).toEqual([]);
  });
});

/** The requests screen with a pending received request, and the Approve dialog (both viewports). */
async function captureRequests(): Promise<void> {
  const ashaToken = await token(asha);
  for (const viewport of ['desktop', 'phone'] as const) {
    const { page, context } = await session(viewport, ashaToken);
    await page.goto('/requests');
    await page.getByRole('tab', { name: 'Received (2)' }).waitFor();
    const approve = page.getByRole('button', { name: 'Approve' });
    await approve.first().waitFor();
    await screenshot(page, SCREENSHOT_DIR, 'requests', viewport);
    await approve.first().click();
    await dialog(page, 'Approve request').getByTestId('confirm-pay-title').waitFor();
    await screenshot(page, SCREENSHOT_DIR, 'dialog-approve-request', viewport, false);
    await context.close();
    sessions.splice(
      sessions.findIndex((opened) => opened.page === page),
      1,
    );
  }
}

/** Every other screen and dialog at one viewport: a guest, Asha and the admin, each signed in by token. */
async function captureEverything(viewport: ViewportName): Promise<void> {
  // No screen may scroll sideways (a phone layout that overflows is broken even if it looks fine at the top).
  const overflowing: string[] = [];
  const shot = async (page: Page, name: string, fullPage = true) => {
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (width > VIEWPORTS[viewport].width) overflowing.push(`${name}: ${width}px wide`);
    await screenshot(page, SCREENSHOT_DIR, name, viewport, fullPage);
  };
  const guest = (await session(viewport)).page;
  await guest.goto('/');
  await guest.getByRole('heading', { name: 'Your Digital Wallet Reimagined' }).waitFor();
  // The hero's two product screenshots have loaded (or fallen back to the neutral frame).
  await guest.waitForFunction(() => Array.from(document.images).every((image) => image.complete));
  await shot(guest, 'landing');
  await guest.goto('/login');
  await guest.getByRole('form', { name: 'Sign in' }).waitFor();
  await shot(guest, 'login');
  await guest.getByRole('button', { name: 'Forgot password?' }).click();
  await dialog(guest, 'Reset Password').waitFor();
  await shot(guest, 'dialog-reset-password', false);
  await guest.goto('/register');
  await guest.getByRole('form', { name: 'Register' }).waitFor();
  await shot(guest, 'register');
  // Terms and Privacy are pages of their own now (no pop-up to capture): the links lead there.
  expect(await guest.getByRole('link', { name: /^Terms of Service/ }).getAttribute('href')).toBe('/terms');
  for (const [path, heading, name] of [
    ['/docs', 'How the wallet works', 'docs'],
    ['/architecture', 'Architecture overview', 'architecture'],
  ] as const) {
    await guest.goto(path);
    await guest.getByRole('heading', { name: heading }).waitFor();
    await shot(guest, name);
  }

  const user = (await session(viewport, await token(asha))).page;
  await user.goto('/dashboard');
  await user.locator('.qr-box img').waitFor();
  await expectText(dashboardBalance(user), '₹1,150.00');
  await user.locator('.recent-item').nth(2).waitFor();
  await user.evaluate(() => document.fonts.ready);
  await shot(user, 'dashboard');
  if (process.env.E2E_HERO_SCREENSHOTS === '1') {
    mkdirSync(HERO_DIR, { recursive: true });
    await user.screenshot({
      path: `${HERO_DIR}/${viewport === 'desktop' ? 'desktop' : 'mobile'}.png`,
      animations: 'disabled',
      caret: 'hide',
      scale: 'css',
      style: HIDE_TOASTS,
    });
  }
  if (viewport === 'phone') {
    await user.getByRole('button', { name: 'Open menu' }).click();
    await user.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Transactions' }).waitFor();
    await shot(user, 'menu', false);
  }
  await user.goto('/transactions');
  await expectText(historyCounter(user), '6 of 6 transactions');
  await shot(user, 'transactions');
  const dialogs: [string, string, string, (scope: Locator) => Promise<void>][] = [
    [
      'DEPOSIT',
      'Deposit Funds',
      'dialog-deposit',
      async (scope) => {
        await scope.getByLabel(/^Card/).check();
        await scope.getByLabel('Card number').waitFor();
      },
    ],
    [
      'SEND',
      'Transfer Funds',
      'dialog-transfer',
      async (scope) => {
        await verifyReceiver(scope, 'Receiver account number', vikramId);
      },
    ],
    [
      'SCAN TO PAY',
      'Scan to Pay',
      'dialog-scan-to-pay',
      async (scope) => {
        await scope.getByRole('tab', { name: 'Upload image' }).click();
      },
    ],
    ['Reset Transaction PIN', 'Reset Transaction PIN', 'dialog-reset-pin', async () => undefined],
  ];
  for (const [button, title, name, prepare] of dialogs) {
    await user.getByRole('button', { name: button, exact: true }).click();
    const open = dialog(user, title);
    await open.waitFor();
    await prepare(open);
    await shot(user, name, false);
    // The dialog's close button: Escape would first dismiss the toast the dialog just raised (its own layer).
    await open.getByRole('button', { name: 'Close', exact: true }).click();
    await open.waitFor({ state: 'detached' });
  }
  await user.goto('/requests');
  await user.getByRole('tab', { name: 'Received (2)' }).waitFor();
  await user.getByRole('button', { name: 'REQUEST MONEY' }).click();
  await dialog(user, 'Send Request').waitFor();
  await shot(user, 'dialog-send-request', false);

  const boss = (await session(viewport, await token(admin))).page;
  await boss.goto('/users');
  await boss.getByRole('tab', { name: 'All (4)' }).waitFor();
  await shot(boss, 'users');

  for (const page of [guest, user, boss]) {
    await page.context().close();
    sessions.splice(
      sessions.findIndex((opened) => opened.page === page),
      1,
    );
  }
  expect(overflowing, `screens wider than the ${viewport} viewport`).toEqual([]);
}
