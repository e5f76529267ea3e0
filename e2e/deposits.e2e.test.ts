/**
 * Top-ups a person can complete and an admin can reconcile, and every outcome said (issue 41
 * items 1 and 6), in the real browser against the real server, at desktop (light theme) and
 * phone (dark theme) sizes:
 * - a UPI deposit's dialog then shows where to pay: the collection account, the UPI ID, the
 *   reference to quote, and a QR code that - read from the screen - decodes to the expected
 *   `upi://pay` link; the axe scan of it is clean;
 * - the admin's pending row shows what the payer entered and opens its detail; a settlement
 *   above the threshold shows "Waiting for a second admin", the approvals name the customer
 *   and the method, and the second admin approves it from the row;
 * - the customer's open page hears both outcomes without a reload: the settled toast (and the
 *   balance), and the failed toast with the reason the admin typed.
 */
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { COLLECTION_DEFAULTS } from '../platform/config.ts';
import { seriousViolations } from './helpers/axe.ts';
import { activeCustomer, apiClient, type Customer } from './helpers/api.ts';
import { launchBrowser, openPage, VIEWPORTS, type ViewportName } from './helpers/browser.ts';
import { serialRun } from './helpers/serial-run.ts';
import { expectText, toast, transactionsBalance } from './helpers/wallet.ts';

// jsqr is CommonJS with a `default` export: under nodenext the default import is module.exports.
const jsQR = jsQRModule.default;

const base = inject('baseUrl');
const ADMIN = { email: inject('adminEmail'), password: inject('adminPassword') };
/** Activates the customers, so that ADMIN may settle their deposits (four eyes, decision 0011). */
const REVIEWER = { email: inject('reviewerEmail'), password: inject('reviewerPassword') };
const PASSWORD = 'deposits-pass-2026';
const PIN = '5173';
/** Above the e2e server's approval threshold (₹10,000): a second admin must approve it. */
const LARGE = { typed: '12345.50', shown: '₹12,345.50' };
const FAILURE_REASON = 'No matching credit on our bank statement';
const THEMES: Record<ViewportName, 'light' | 'dark'> = { desktop: 'light', phone: 'dark' };

const api = apiClient(base);
let browser: Browser;
let adminToken = '';
let reviewerToken = '';

const { sessions, step } = serialRun({ browser: () => browser, base, failurePrefix: 'failure-deposits-' });

beforeAll(async () => {
  browser = await launchBrowser();
  adminToken = await api<string>('POST', '/api/users/login', undefined, ADMIN);
  reviewerToken = await api<string>('POST', '/api/users/login', undefined, REVIEWER);
}, 120_000);

afterAll(async () => {
  await browser.close();
});

/** A page in the viewport's theme that axe may be injected into; tracked for failure screenshots. */
async function themedPage(viewport: ViewportName, token: string): Promise<Page> {
  const opened = await openPage(browser, base, viewport, token, { colorScheme: THEMES[viewport], bypassCSP: true });
  sessions.push(opened);
  return opened.page;
}

/** A table's rows on desktop, its cards on a phone (ResponsiveTable: both named by the caption). */
function rowsOf(page: Page, viewport: ViewportName, caption: string): Locator {
  return viewport === 'desktop'
    ? page.getByRole('table', { name: caption }).getByRole('row')
    : page.getByRole('list', { name: caption }).getByRole('listitem');
}

/** The text a QR code shows on the screen: the element's screenshot, decoded. */
async function qrOnScreen(image: Locator): Promise<string> {
  const png = PNG.sync.read(await image.screenshot());
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? '';
}

async function pendingDepositId(reference: string): Promise<string> {
  const page = await api<{ items: { depositId: string; reference: string }[] }>(
    'GET',
    '/api/admin/pending-deposits?limit=200',
    adminToken,
  );
  const found = page.items.find((item) => item.reference === reference)?.depositId;
  expect(found, `a pending deposit referenced ${reference}`).toBeTruthy();
  return found ?? '';
}

for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
  let customer: Customer;
  let customerPage: Page;
  let admin: Page;
  let depositId = '';
  const reference = `rent ${viewport}`;
  const upiId = `tara.${viewport}@okaxis`;
  const names = () => ({ amount: LARGE.shown, name: customer.name });

  step(
    `${viewport}: the deposit dialog says where to pay, with a UPI QR that decodes to the upi://pay link`,
    async () => {
      customer = await activeCustomer(api, reviewerToken, {
        firstName: 'Tara',
        lastName: viewport === 'desktop' ? 'Kapoor' : 'Bose',
        email: `tara.${viewport}.deposits@example.in`,
        password: PASSWORD,
        pin: PIN,
        address: '4 Park Street, Kolkata 700016',
      });
      customerPage = await themedPage(viewport, customer.token);
      await customerPage.goto('/transactions');
      await customerPage.getByRole('button', { name: 'DEPOSIT' }).click();
      const dialog = customerPage.getByRole('dialog', { name: 'Deposit Funds' });
      await dialog.getByLabel('Amount (₹)').fill(LARGE.typed);
      await dialog.getByLabel('Reference', { exact: true }).fill(reference);
      await dialog.getByLabel('Transaction PIN', { exact: true }).fill(PIN);
      await dialog.getByRole('radio', { name: /^UPI/ }).check();
      await dialog.getByLabel('UPI ID').fill(upiId);
      await dialog.getByRole('button', { name: 'Submit deposit' }).click();
      await toast(customerPage, 'Deposit request submitted successfully!');

      const instructions = dialog.getByTestId('deposit-instructions');
      await expectText(instructions.getByRole('heading'), `Pay ${LARGE.shown} to complete your deposit`);
      const text = (await instructions.textContent()) ?? '';
      for (const shown of [
        COLLECTION_DEFAULTS.accountName,
        COLLECTION_DEFAULTS.accountNumber,
        COLLECTION_DEFAULTS.ifsc,
        COLLECTION_DEFAULTS.upiId,
        reference,
      ])
        expect(text).toContain(shown);
      depositId = await pendingDepositId(reference);
      const link =
        `upi://pay?pa=${encodeURIComponent(COLLECTION_DEFAULTS.upiId)}&pn=Rupee%20Wallet%20Collections` +
        `&am=12345.50&cu=INR&tn=rent%20${viewport}&tr=${depositId.replace(/-/g, '')}`;
      expect(await qrOnScreen(instructions.getByRole('img', { name: `UPI QR code to pay ${LARGE.shown}` }))).toBe(link);
      expect(await instructions.getByTestId('upi-link').getAttribute('href')).toBe(link);
      expect(await seriousViolations(customerPage)).toEqual([]);
      await dialog.getByRole('button', { name: 'Done' }).click();
      await dialog.waitFor({ state: 'detached' });
    },
  );

  step(`${viewport}: the admin's pending row shows the payer and opens its detail`, async () => {
    admin = await themedPage(viewport, adminToken);
    await admin.goto('/users');
    const row = rowsOf(admin, viewport, 'Pending deposits').filter({ hasText: depositId });
    await expectText(row.getByText(`UPI ${upiId}`), `UPI ${upiId}`);
    expect(await row.textContent()).toContain(reference);
    await row.getByRole('button', { name: `Details of ${LARGE.shown} from ${customer.name}` }).click();
    const detail = admin.getByRole('dialog', { name: `Deposit of ${LARGE.shown} from ${customer.name}` });
    const shown = (await detail.getByTestId('deposit-detail').textContent()) ?? '';
    for (const value of [upiId, reference, depositId, customer.id, "Payer's UPI ID"]) expect(shown).toContain(value);
    expect(await seriousViolations(admin)).toEqual([]);
    await detail.getByRole('button', { name: 'Close' }).last().click();
    await detail.waitFor({ state: 'detached' });
  });

  step(
    `${viewport}: a settlement above the threshold waits for a second admin, who approves it; the customer is told`,
    async () => {
      const row = rowsOf(admin, viewport, 'Pending deposits').filter({ hasText: depositId });
      await row.getByRole('button', { name: `Settle ${LARGE.shown} from ${customer.name}` }).click();
      await toast(admin, "Awaiting a second admin's approval");
      await expectText(
        row.getByTestId('waiting-approval').getByText('Waiting for a second admin'),
        'Waiting for a second admin',
      );
      // The admin who asked can neither settle it again nor approve it.
      expect(await row.getByRole('button', { name: /^(Settle|Approve settling) / }).count()).toBe(0);

      const reviewer = await themedPage(viewport, reviewerToken);
      await reviewer.goto('/admin/operations');
      const approval = rowsOf(reviewer, viewport, 'Waiting for a second admin').filter({ hasText: customer.name });
      await approval.first().waitFor();
      const approvalText = (await approval.first().textContent()) ?? '';
      expect(approvalText).toContain('UPI');
      expect(approvalText).toContain(LARGE.shown);
      expect(approvalText).not.toContain(`deposit-${depositId}`);

      await reviewer.goto('/users');
      await rowsOf(reviewer, viewport, 'Pending deposits')
        .filter({ hasText: depositId })
        .getByRole('button', { name: `Approve settling ${LARGE.shown} from ${customer.name}` })
        .click();
      await toast(reviewer, 'Approved: the deposit has been settled');
      await toast(customerPage, `Your deposit of ${names().amount} was settled and added to your balance`);
      await expectText(transactionsBalance(customerPage), LARGE.shown);
    },
  );

  step(`${viewport}: a failed deposit's toast carries the admin's reason`, async () => {
    const failing = await api<{ transactionId: string }>('POST', '/api/transactions/deposit-funds', customer.token, {
      amount: 150,
      reference: `bank ${viewport}`,
      transactionPin: PIN,
      paymentMethod: 'bank_transfer',
      bankDetails: { accountNumber: '001234567890', ifscCode: 'SBIN0001234', bankName: 'State Bank of India' },
    });
    const row = rowsOf(admin, viewport, 'Pending deposits').filter({ hasText: failing.transactionId });
    await expectText(
      row.getByText('A/c 001234567890 · SBIN0001234 · State Bank of India'),
      'A/c 001234567890 · SBIN0001234 · State Bank of India',
    );
    await row.getByRole('button', { name: `Fail ₹150 from ${customer.name}` }).click();
    const dialog = admin.getByRole('dialog', { name: 'Mark deposit as failed' });
    await dialog.getByLabel('Reason').fill(FAILURE_REASON);
    await dialog.getByRole('button', { name: 'Mark failed' }).click();
    await toast(admin, 'Deposit marked as failed');
    await toast(customerPage, `Your deposit was not accepted: ${FAILURE_REASON}`);
    // And the history keeps it, for whoever reads it later.
    await customerPage.reload();
    await expectText(
      customerPage
        .locator(viewport === 'phone' ? '.card-list' : '.only-desktop')
        .locator('.failure-reason')
        .first(),
      `Reason: ${FAILURE_REASON}`,
    );
  });
}
