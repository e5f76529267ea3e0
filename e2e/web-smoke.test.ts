/**
 * Browser smoke of the built web app against the real API in one process (the identity test
 * harness: fresh database, real ledger, projections drained every 300 ms), driven through
 * Debian's chromium. Not the final end-to-end suite (that one runs `npm start`): it checks
 * that the client and the API agree on every screen's contract. Needs `npm run build:web`.
 * Run: npx vitest run --config e2e/vitest.smoke.config.ts
 */
import { mkdirSync } from 'node:fs';
import QRCode from 'qrcode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { drainAll } from '../projections/index.ts';
import { registerWebApp } from '../api/web-app.ts';
import { ADMIN, startHarness, type Harness } from '../identity/test-support.ts';
import { launchBrowser, openPage, screenshot } from './helpers/browser.ts';

let h: Harness;
let base = '';
let timer: NodeJS.Timeout;
beforeAll(async () => {
  h = await startHarness();
  await registerWebApp(h.app, { distDir: '/work/main/web/dist' });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const address = h.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  timer = setInterval(() => void drainAll(h.database.db).catch(() => undefined), 300);
}, 120_000);
afterAll(async () => {
  clearInterval(timer);
  await h?.close();
});

it('register -> admin activates -> sign in -> card and UPI deposits -> settle -> transfer -> requests -> scan to pay, balances refresh without reloads', async () => {
  const out = 'test-output/web-smoke';
  mkdirSync(out, { recursive: true });
  const browser = await launchBrowser();
  const logs: string[] = [];
  try {
    const { page } = await openPage(browser, base, 'desktop');
    page.on('console', (m) => logs.push(`${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => logs.push(`pageerror: ${e.message}`));
    await page.goto('/register');
    const fields: [string, string][] = [['First name', 'Meera'], ['Last name', 'Iyer'], ['Email', 'meera@example.in'], ['Contact number', '+91 99887 76655'], ['Identification number', 'ABCDE1234F'], ['Address', 'Chennai'], ['Password', 'meera-pass-1'], ['Confirm password', 'meera-pass-1'], ['Transaction PIN', '2468'], ['Confirm PIN', '2468']];
    for (const [label, value] of fields) await page.getByLabel(label, { exact: true }).fill(value);
    await page.getByLabel('Identification type').selectOption('PAN Card');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/user-not-verified');
    await screenshot(page, out, 'pending', 'desktop');

    const admin = await openPage(browser, base, 'desktop');
    admin.page.on('pageerror', (e) => logs.push(`admin pageerror: ${e.message}`));
    await admin.page.goto('/login');
    await admin.page.getByLabel('Email').fill(ADMIN.email);
    await admin.page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await admin.page.getByRole('button', { name: 'Sign in' }).click();
    await admin.page.waitForURL('**/dashboard');
    await admin.page.goto('/users');
    await admin.page.getByRole('button', { name: 'Activate Meera Iyer' }).click();
    await admin.page.getByRole('button', { name: 'Suspend Meera Iyer' }).waitFor();
    await screenshot(admin.page, out, 'users', 'desktop');

    await page.goto('/login');
    await page.getByLabel('Email').fill('meera@example.in');
    await page.getByLabel('Password', { exact: true }).fill('meera-pass-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByText('Hi Meera, Welcome').waitFor();
    await page.locator('.qr-box img').waitFor();
    await page.goto('/transactions');
    await page.getByRole('button', { name: 'DEPOSIT' }).click();
    await page.getByLabel(/Card/).check();
    await page.getByLabel('Amount (₹)').fill('1500');
    await page.getByLabel('Reference', { exact: true }).fill('first top up');
    await page.getByLabel('Transaction PIN', { exact: true }).fill('2468');
    await page.getByLabel('Card number').fill('4242424242424242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/30');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Pay ₹1,500' }).click();
    await page.getByText('Card deposit successful! Your account has been credited.').first().waitFor();
    await page.getByText('₹1,500', { exact: true }).first().waitFor();
    await page.getByText('1 of 1 transactions', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'DEPOSIT' }).click();
    await page.getByLabel(/UPI/).check();
    await page.getByLabel('Amount (₹)').fill('250');
    await page.getByLabel('Reference', { exact: true }).fill('upi top up');
    await page.getByLabel('Transaction PIN', { exact: true }).fill('2468');
    await page.getByLabel('UPI ID').fill('meera@okbank');
    await page.getByRole('button', { name: 'Submit deposit' }).click();
    await page.getByText('Deposit request submitted successfully!').first().waitFor();
    await page.getByText('2 of 2 transactions', { exact: true }).waitFor();
    await screenshot(page, out, 'transactions', 'desktop');
    const upiId = await page.locator('tr', { hasText: 'upi top up' }).locator('.mono').getAttribute('title');
    await page.goto('/dashboard');
    await page.getByText('first top up').waitFor();
    await screenshot(page, out, 'dashboard', 'desktop');

    // Admin settles the UPI deposit.
    await admin.page.getByRole('button', { name: 'REVIEW DEPOSIT' }).click();
    await admin.page.getByLabel('Deposit transaction ID').fill(upiId ?? '');
    await admin.page.getByRole('button', { name: 'Settle deposit' }).click();
    await admin.page.getByText('Deposit settled: the wallet has been credited').first().waitFor();

    // Meera pays the admin 100 (transfer with verification), then requests 40 from the admin.
    const adminId = await admin.page.evaluate(async () => {
      const reply = await fetch('/api/users/get-user-info', { method: 'POST', headers: { authorization: `Bearer ${localStorage.getItem('token')}`, 'content-type': 'application/json' } });
      return ((await reply.json()) as { data: { _id: string } }).data._id;
    });
    await page.goto('/transactions');
    await page.getByText('₹1,750', { exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'SEND' }).click();
    await page.getByLabel('Receiver account number').fill(adminId);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.locator('.verified-panel').waitFor();
    await page.getByLabel('Amount (₹)').fill('100');
    await page.getByLabel('Reference', { exact: true }).fill('book club');
    await page.getByLabel('Transaction PIN', { exact: true }).fill('2468');
    await page.getByRole('button', { name: 'Transfer', exact: true }).click();
    await page.getByText('₹1,650', { exact: true }).first().waitFor();
    await page.goto('/requests');
    await page.getByRole('button', { name: 'REQUEST MONEY' }).click();
    await page.getByLabel('Account Number').fill(adminId);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Account Verified', { exact: true }).waitFor();
    await page.getByLabel('Amount (₹)').fill('40');
    await page.getByLabel('Reference', { exact: true }).fill('snacks');
    await page.getByRole('button', { name: 'Send Request', exact: true }).click();
    await page.getByRole('tab', { name: 'Sent (1)' }).waitFor();

    // The admin rejects Meera's request (no PIN needed to reject).
    await admin.page.goto('/requests');
    await admin.page.getByRole('tab', { name: 'Received (1)' }).waitFor();
    await screenshot(admin.page, out, 'requests', 'desktop');
    await admin.page.getByRole('button', { name: 'Reject' }).click();
    await admin.page.getByText('Request rejected successfully').first().waitFor();
    await admin.page.getByText('Rejected', { exact: true }).first().waitFor();

    // The admin asks Meera for 30; Meera approves with her PIN.
    const meeraId = await page.evaluate(async () => {
      const reply = await fetch('/api/users/get-user-info', { method: 'POST', headers: { authorization: `Bearer ${localStorage.getItem('token')}`, 'content-type': 'application/json' } });
      return ((await reply.json()) as { data: { _id: string } }).data._id;
    });
    await admin.page.getByRole('button', { name: 'REQUEST MONEY' }).click();
    await admin.page.getByLabel('Account Number').fill(meeraId);
    await admin.page.getByRole('button', { name: 'Verify' }).click();
    await admin.page.getByText('Account Verified', { exact: true }).waitFor();
    await admin.page.getByLabel('Amount (₹)').fill('30');
    await admin.page.getByLabel('Reference', { exact: true }).fill('tea money');
    await admin.page.getByRole('button', { name: 'Send Request', exact: true }).click();
    await admin.page.getByRole('tab', { name: 'Sent (1)' }).waitFor();
    await page.reload();
    await page.getByRole('tab', { name: 'Received (1)' }).click();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByLabel('Transaction PIN', { exact: true }).fill('2468');
    await page.getByRole('button', { name: 'Approve and pay' }).click();
    await page.getByText('Request approved successfully').first().waitFor();
    await page.getByText('Accepted', { exact: true }).first().waitFor();
    await screenshot(page, out, 'requests-meera', 'desktop');

    // Scan to pay by uploading a QR image of the admin's account.
    const qrPath = `${out}/admin-qr.png`;
    await QRCode.toFile(qrPath, `http://wallet.test:3000/user/${adminId}`);
    await page.goto('/transactions');
    await page.getByText('₹1,620', { exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'SCAN TO PAY' }).click();
    await page.getByRole('tab', { name: 'Upload image' }).click();
    await page.getByLabel('Upload QR code image').setInputFiles(qrPath);
    await page.getByText('Scan different QR code').waitFor();
    await page.getByLabel('Amount (₹)').fill('20');
    await page.getByLabel('Reference', { exact: true }).fill('scan pay');
    await page.getByLabel('Transaction PIN', { exact: true }).fill('2468');
    await screenshot(page, out, 'scan', 'desktop');
    await page.getByRole('button', { name: 'Pay Now' }).click();
    await page.getByText('₹1,600', { exact: true }).first().waitFor();
    await page.getByText('5 of 5 transactions', { exact: true }).waitFor();

    // Keyboard only through the transfer dialog.
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'SEND' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Transfer Funds' }).waitFor();
    const focusedLabel = () =>
      page.evaluate(() => {
        const active = document.activeElement as HTMLInputElement | null;
        if (!active || !active.matches('input, textarea, select, button')) return '';
        return active.getAttribute('aria-label') ?? active.labels?.[0]?.textContent ?? active.textContent ?? '';
      });
    while (!(await focusedLabel()).includes('Receiver account number')) await page.keyboard.press('Tab');
    await page.keyboard.type(adminId);
    await page.keyboard.press('Tab');
    expect(await focusedLabel()).toBe('Verify');
    await page.keyboard.press('Enter');
    await page.locator('.verified-panel').waitFor();
    // Verified: focus moves on to the amount by itself.
    await page.waitForFunction(() => document.activeElement?.id === 'pay-amount');
    await page.keyboard.type('10');
    await page.keyboard.press('Tab');
    await page.keyboard.type('keyboard pay');
    await page.keyboard.press('Tab');
    await page.keyboard.type('2468');
    await page.keyboard.press('Enter');
    await page.getByText('₹1,590', { exact: true }).first().waitFor();
    await page.getByText('6 of 6 transactions', { exact: true }).waitFor();
    await screenshot(page, out, 'transactions-final', 'desktop');

    // The landing page's hero shows these two real dashboard screenshots.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    await page.goto('/dashboard');
    await page.locator('.qr-box img').waitFor();
    await page.getByText('keyboard pay').waitFor();
    await page.screenshot({ path: 'web/public/screenshots/desktop.png', animations: 'disabled' });
    const phone = await openPage(browser, base, 'phone');
    await phone.context.addInitScript((value) => localStorage.setItem('token', value ?? ''), token);
    await phone.page.goto('/dashboard');
    await phone.page.locator('.qr-box img').waitFor();
    await phone.page.screenshot({ path: 'web/public/screenshots/mobile.png', animations: 'disabled' });
  } finally {
    console.log(logs.join('\n'));
    await browser.close();
  }
  expect(logs.filter((line) => line.includes('pageerror'))).toEqual([]);
}, 120_000);
