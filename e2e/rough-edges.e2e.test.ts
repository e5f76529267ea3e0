/**
 * Issue 31's rough edges, in a real browser against the real server, at desktop and phone
 * widths: the dashboard shows the exact balance to the paisa (₹4,000.50, not ₹4,001); an
 * amount that is not one (1.234, -5, abc) stays in the field with the amount rule's reason
 * under it and nothing is sent; on a phone, Send comes before the QR card, the Users page's
 * Unverified tab is on screen, and a toast does not cover the top bar's buttons.
 * Runs after the story files (e2e/vitest.config.ts), with a customer of its own.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { activeCustomer, apiClient, type Customer } from './helpers/api.ts';
import { seriousViolations } from './helpers/axe.ts';
import { launchBrowser, openPage, VIEWPORTS } from './helpers/browser.ts';
import { serialRun } from './helpers/serial-run.ts';
import {
  confirmAndPay,
  dashboardBalance,
  expectText,
  register,
  textOf,
  transactionsBalance,
  verifyReceiver,
} from './helpers/wallet.ts';

const base = inject('baseUrl');
const ADMIN = { email: inject('adminEmail'), password: inject('adminPassword') };
const PIN = '3579';
const VIEWPORT_NAMES = ['desktop', 'phone'] as const;
const BAD_AMOUNTS = [
  ['1.234', 'Amount can have at most 2 decimal places'],
  ['-5', 'Amount cannot be negative'],
  ['abc', 'Amount can contain only digits and one decimal point'],
] as const;

let browser: Browser;
let adminToken = '';
let meera: Customer;
// Issue 43's payer: wrong PINs of their own, so Meera's PIN is never near a lock.
let kabir: Customer;
const KABIR_PIN = '2468';
const WRONG_PIN = '9999';

const api = apiClient(base);

const { session, step } = serialRun({ browser: () => browser, base, failurePrefix: 'failure-rough-edges-' });

/** Every money command the page sends from now on (none may leave for a refused amount). */
function recordCommands(page: Page): string[] {
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/api\/(transactions|requests)\/(deposit|transfer|send)/.test(request.url()))
      sent.push(request.url());
  });
  return sent;
}

beforeAll(async () => {
  browser = await launchBrowser();
  adminToken = await api<string>('POST', '/api/users/login', undefined, ADMIN);
  meera = await activeCustomer(api, adminToken, {
    firstName: 'Meera',
    lastName: 'Iyer',
    email: 'meera.iyer.rough@example.in',
    password: 'rough-edges-pass-31',
    pin: PIN,
    address: '4 Marine Drive, Kochi 682031',
  });
  // A sandbox card deposit credits at once: ₹4,000.50 must not show as ₹4,001.
  await api('POST', '/api/transactions/deposit-funds', meera.token, {
    amount: 4000.5,
    reference: 'card top up',
    transactionPin: PIN,
    paymentMethod: 'card',
    paymentMethodId: 'pm_sandbox_4242',
  });
  kabir = await activeCustomer(api, adminToken, {
    firstName: 'Kabir',
    lastName: 'Sethi',
    email: 'kabir.sethi.rough@example.in',
    password: 'rough-edges-pass-43',
    pin: KABIR_PIN,
    address: '9 Park Street, Kolkata 700016',
  });
  await api('POST', '/api/transactions/deposit-funds', kabir.token, {
    amount: 5000,
    reference: 'card top up',
    transactionPin: KABIR_PIN,
    paymentMethod: 'card',
    paymentMethodId: 'pm_sandbox_4242',
  });
}, 120_000);

/** A page in Hindi from its first load (the language the switch would have stored). */
async function hindiSession(viewport: (typeof VIEWPORT_NAMES)[number], token?: string): Promise<Page> {
  const { context, page } = await session(viewport, token);
  await context.addInitScript(() => window.localStorage.setItem('language', 'hi'));
  return page;
}

/** The PIN field of a refused payment: the reason under it (its aria-describedby), and empty for the next try. */
async function expectPinRefused(scope: Locator, label: string, reason: string): Promise<void> {
  const pin = scope.getByLabel(label, { exact: true });
  await expect.poll(() => pin.getAttribute('aria-invalid'), { timeout: 15_000 }).toBe('true');
  await expectText(scope.locator(`#${await pin.getAttribute('aria-describedby')}`), reason);
  expect(await pin.inputValue()).toBe('');
}

afterAll(async () => {
  await browser?.close();
});

describe('rough edges, in a real browser', () => {
  for (const viewport of VIEWPORT_NAMES) {
    step(`${viewport}: the dashboard shows the exact balance to the paisa, hide/show kept`, async () => {
      const { page } = await session(viewport, meera.token);
      await page.goto('/dashboard');
      await expectText(dashboardBalance(page), '₹4,000.50');
      await page.getByRole('button', { name: 'Hide balance' }).click();
      await expectText(dashboardBalance(page), '****');
      await page.getByRole('button', { name: 'Show balance' }).click();
      await expectText(dashboardBalance(page), '₹4,000.50');
    });

    step(`${viewport}: 1.234, -5 and abc are refused on the amount field, and nothing is sent`, async () => {
      const { page } = await session(viewport, meera.token);
      const sent = recordCommands(page);
      await page.goto('/transactions');
      await page.getByRole('button', { name: 'DEPOSIT' }).click();
      const deposit = page.getByRole('dialog', { name: 'Deposit Funds' });
      await deposit.getByRole('radio', { name: /^UPI/ }).check();
      await deposit.getByLabel('UPI ID').fill('meera@okbank');
      await deposit.getByLabel('Reference', { exact: true }).fill('top up');
      await deposit.getByLabel('Transaction PIN', { exact: true }).fill(PIN);
      const amount = deposit.getByLabel('Amount (₹)');
      for (const [typed, reason] of BAD_AMOUNTS) {
        await amount.fill('');
        await amount.pressSequentially(typed);
        // Kept exactly as typed: refused, not rewritten (1.23, 5 or an empty field).
        expect(await amount.inputValue()).toBe(typed);
        expect(await amount.getAttribute('aria-invalid')).toBe('true');
        await deposit.getByRole('button', { name: 'Submit deposit' }).click();
        const error = deposit.locator(`#${await amount.getAttribute('aria-describedby')}`);
        await expectText(error, reason);
        await deposit.getByRole('button', { name: 'Submit deposit' }).waitFor();
      }
      // Refusals say their reason once, on the field: no toast repeats them.
      expect(await page.getByTestId('toast').count()).toBe(0);
      expect(sent).toEqual([]);
    });
  }

  step('phone: Send comes before the payment QR, and a toast leaves the top bar free', async () => {
    const { page } = await session('phone', meera.token);
    await page.goto('/dashboard');
    const send = await page.getByRole('link', { name: 'Send Money' }).boundingBox();
    const qr = await page.getByRole('heading', { name: 'Payment QR Code' }).boundingBox();
    expect(send && qr && send.y < qr.y).toBe(true);
    // Copying raises a toast either way (copied, or the manual-copy advice without clipboard access).
    await page.getByRole('button', { name: 'Copy account number' }).click();
    const toast = page.getByTestId('toast').first();
    await toast.waitFor();
    const toastBox = await toast.boundingBox();
    const menuBox = await page.getByRole('button', { name: 'Open menu' }).boundingBox();
    expect(toastBox && menuBox && toastBox.y >= menuBox.y + menuBox.height).toBe(true);
  });

  step("phone: every filter tab of the Users page is on screen, 'Unverified' too", async () => {
    const { page } = await session('phone', adminToken);
    await page.goto('/users');
    const unverified = page.getByRole('tab', { name: /^Unverified \(\d+\)$/ });
    await unverified.waitFor();
    const box = await unverified.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= VIEWPORTS.phone.width).toBe(true);
    await unverified.click();
    expect(await textOf(page.getByRole('tab', { selected: true }))).toMatch(/^Unverified/);
  });
});

describe("issue 43's rough edges, in a real browser", () => {
  // Each wrong PIN counts (five before a lock): the three dialogs below see 4, 3, then 2 left.
  step('desktop: a wrong PIN on Transfer says its reason under the PIN field, which clears', async () => {
    const { page } = await session('desktop', kabir.token);
    await page.goto('/transactions');
    await page.getByRole('button', { name: 'SEND', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Transfer Funds' });
    await verifyReceiver(dialog, 'Receiver account number', meera.id);
    await dialog.getByLabel('Amount (₹)').fill('25');
    await dialog.getByLabel('Reference', { exact: true }).fill('lunch');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await confirmAndPay(dialog, 'Pay ₹25.00 to Meera Iyer', WRONG_PIN);
    await expectPinRefused(
      dialog,
      'Transaction PIN',
      'Invalid transaction PIN. 4 attempts remaining before a 15-minute lock.',
    );
    // Refused on the field: no toast repeats it.
    expect(await page.getByTestId('toast').filter({ hasText: 'Invalid transaction PIN' }).count()).toBe(0);
  });

  step('phone, Hindi: a wrong PIN on Deposit says its reason in Hindi under the PIN field, which clears', async () => {
    const page = await hindiSession('phone', kabir.token);
    await page.goto('/transactions');
    await page.getByRole('button', { name: 'पैसे जोड़ें', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'पैसे जोड़ें' });
    await dialog.getByRole('radio', { name: /^UPI/ }).check();
    await dialog.getByLabel('UPI ID').fill('kabir@okbank');
    await dialog.getByLabel('राशि (₹)').fill('300');
    await dialog.getByLabel('संदर्भ', { exact: true }).fill('top up');
    await dialog.getByLabel('ट्रांज़ैक्शन PIN', { exact: true }).fill(WRONG_PIN);
    await dialog.getByRole('button', { name: 'जमा अनुरोध भेजें' }).click();
    await expectPinRefused(dialog, 'ट्रांज़ैक्शन PIN', 'ट्रांज़ैक्शन PIN गलत है। 3 प्रयास बाकी हैं।');
  });

  step('desktop: a wrong PIN when approving a request says its reason; the right one then pays', async () => {
    await api('POST', '/api/requests/send-request', meera.token, {
      receiver: kabir.id,
      amount: 150,
      reference: 'concert ticket',
    });
    const { page } = await session('desktop', kabir.token);
    await page.goto('/requests');
    await page.getByRole('button', { name: 'Approve' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Approve request' });
    await confirmAndPay(dialog, 'Pay ₹150.00 to Meera Iyer', WRONG_PIN, 'Approve and pay');
    await expectPinRefused(
      dialog,
      'Transaction PIN',
      'Invalid transaction PIN. 2 attempts remaining before a 15-minute lock.',
    );
    await dialog.getByLabel('Transaction PIN', { exact: true }).fill(KABIR_PIN);
    await dialog.getByRole('button', { name: 'Approve and pay' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });
});

/** The app's one date format (lib/format.ts): en-IN, India Standard Time, 12-hour. */
const IST = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'Asia/Kolkata',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
});

describe("issue 43's rough edges: history and requests", () => {
  step('desktop: the history says who money came from ("From"), and who it went to', async () => {
    const { page } = await session('desktop', meera.token);
    await page.goto('/transactions');
    const table = page.getByRole('table', { name: 'Transactions' });
    await expectText(table.getByRole('columnheader').nth(4), 'To / From');
    const received = table.locator('tbody tr', { hasText: 'concert ticket' });
    await expectText(received.locator('td').nth(4), `From Kabir Sethi (${kabir.id.slice(0, 8)})`);
    const payer = (await session('desktop', kabir.token)).page;
    await payer.goto('/transactions');
    const paid = payer.getByRole('table', { name: 'Transactions' }).locator('tbody tr', { hasText: 'concert ticket' });
    await expectText(paid.locator('td').nth(4), `To Meera Iyer (${meera.id.slice(0, 8)})`);
  });

  step('phone, Hindi: a card of money received names its sender', async () => {
    const page = await hindiSession('phone', meera.token);
    await page.goto('/transactions');
    const card = page.locator('.list-card', { hasText: 'concert ticket' });
    await card.waitFor();
    await expect
      .poll(() => textOf(card.locator('.muted.small')), { timeout: 15_000 })
      .toMatch(new RegExp(`· Kabir Sethi \\(${kabir.id.slice(0, 8)}\\) से$`));
  });

  step('phone: a pending UPI deposit card reads "UPI deposit, pending", in Hindi too', async () => {
    await api('POST', '/api/transactions/deposit-funds', kabir.token, {
      amount: 700,
      reference: 'upi top up',
      transactionPin: KABIR_PIN,
      paymentMethod: 'upi',
      upiDetails: { upiId: 'kabir@okbank' },
    });
    const { page } = await session('phone', kabir.token);
    await page.goto('/transactions');
    const card = page.locator('.list-card', { hasText: 'upi top up' });
    await expectText(card.locator('.history-title'), 'UPI deposit, pending');
    const hindi = await hindiSession('phone', kabir.token);
    await hindi.goto('/transactions');
    await expectText(
      hindi.locator('.list-card', { hasText: 'upi top up' }).locator('.history-title'),
      'UPI से जमा, लंबित',
    );
  });

  step('desktop: after sending a request the Sent tab is open, showing it', async () => {
    const { page } = await session('desktop', kabir.token);
    await page.goto('/requests');
    await expectText(page.getByRole('tab', { selected: true }), 'Received (1)');
    await page.getByRole('button', { name: 'REQUEST MONEY' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send Request' });
    await verifyReceiver(dialog, 'Account Number', meera.id);
    await dialog.getByLabel('Amount (₹)').fill('80');
    await dialog.getByLabel('Reference', { exact: true }).fill('cab fare');
    await dialog.getByRole('button', { name: 'Send Request', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await expectText(page.getByRole('tab', { selected: true }), 'Sent (1)');
    const row = page.getByRole('table', { name: 'Sent requests' }).locator('tbody tr', { hasText: 'cab fare' });
    await expectText(row.locator('td').nth(4), 'Pending');
  });

  step('phone: Reject asks to confirm; Keep it keeps the request, Reject rejects it', async () => {
    const { page } = await session('phone', meera.token);
    await page.goto('/requests');
    const card = () => page.locator('.list-card', { hasText: 'Kabir Sethi' }).filter({ hasText: '₹80' });
    await card().getByRole('button', { name: 'Reject' }).click();
    const confirm = page.getByRole('dialog', { name: 'Reject request' });
    await expectText(confirm.getByTestId('reject-question'), 'Reject ₹80 asked by Kabir Sethi?');
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    await confirm.waitFor({ state: 'detached' });
    await card().getByRole('button', { name: 'Approve' }).waitFor();
    await card().getByRole('button', { name: 'Reject' }).click();
    await page.getByRole('dialog', { name: 'Reject request' }).getByRole('button', { name: 'Reject' }).click();
    await page.getByRole('dialog', { name: 'Reject request' }).waitFor({ state: 'detached' });
    await expectText(card().locator('.badge'), 'Rejected');
  });

  step('desktop: an answered request is dated when it was answered, with when it was asked beneath', async () => {
    const requests = await api<{ reference: string; createdAt: string; decidedAt: string | null }[]>(
      'GET',
      '/api/requests/get-all-requests-by-user',
      meera.token,
    );
    const answered = requests.find((request) => request.reference === 'concert ticket');
    expect(answered?.decidedAt).toBeTruthy();
    const { page } = await session('desktop', meera.token);
    await page.goto('/requests');
    await page.getByRole('tab', { name: /^Sent/ }).click();
    const row = page.getByRole('table', { name: 'Sent requests' }).locator('tbody tr', { hasText: 'concert ticket' });
    // innerText: the two dates are lines of their own.
    const cell = async () => (await row.locator('td').nth(5).innerText()).replace(/\s+/g, ' ').trim();
    await expect
      .poll(cell, { timeout: 15_000 })
      .toBe(
        `${IST.format(new Date(answered?.decidedAt ?? ''))} Asked ${IST.format(new Date(answered?.createdAt ?? ''))}`,
      );
  });
});

/** Whether this field has the keyboard focus now (polled: radix-ui moves focus after the open animation's first frame). */
async function expectFocused(field: Locator): Promise<void> {
  await expect
    .poll(() => field.evaluate((element) => element === document.activeElement), { timeout: 15_000 })
    .toBe(true);
}

/** WCAG contrast of two rgb() colours. */
function contrast(first: string, second: string): number {
  const luminance = (color: string) => {
    const [red = 0, green = 0, blue = 0] = (color.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
    const linear = (channel: number) => {
      const value = channel / 255;
      return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue);
  };
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

/**
 * The focused element's ring (the last of its shadows: "rgb(...) 0px 0px 0px 4px") against the
 * page's background and the cards' surface: the lower of the two contrasts.
 */
async function ringContrast(page: Page): Promise<number> {
  const seen = await page.evaluate(() => {
    const active = document.activeElement;
    const probe = document.createElement('div');
    probe.style.color = getComputedStyle(document.documentElement).getPropertyValue('--surface').trim();
    document.body.append(probe);
    const surface = getComputedStyle(probe).color;
    probe.remove();
    return {
      ring: active ? getComputedStyle(active).boxShadow : '',
      page: getComputedStyle(document.body).backgroundColor,
      surface,
    };
  });
  const ring = /rgba?\([^)]*\)(?=[^(]*$)/.exec(seen.ring)?.[0];
  if (!ring) return 0;
  // A translucent ring is seen blended with what is behind it.
  return Math.min(contrast(over(ring, seen.page), seen.page), contrast(over(ring, seen.surface), seen.surface));
}

/** The colour `top` (rgb or rgba) shows over an opaque `bottom`, as rgb(). */
function over(top: string, bottom: string): string {
  const [red = 0, green = 0, blue = 0, alpha = 1] = (top.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  const [underRed = 0, underGreen = 0, underBlue = 0] = (bottom.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  const mix = (upper: number, lower: number) => Math.round(alpha * upper + (1 - alpha) * lower);
  return `rgb(${mix(red, underRed)}, ${mix(green, underGreen)}, ${mix(blue, underBlue)})`;
}

describe("issue 43's rough edges: focus", () => {
  step('desktop: Transfer opens on its first field; a failed Continue lands on the field it refused', async () => {
    const { page } = await session('desktop', kabir.token);
    await page.goto('/transactions');
    await page.getByRole('button', { name: 'SEND', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Transfer Funds' });
    await expectFocused(dialog.getByLabel('Receiver account number'));
    await verifyReceiver(dialog, 'Receiver account number', meera.id);
    await dialog.getByLabel('Amount (₹)').fill('20');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    // The reference is missing: its reason is under it and the cursor is in it.
    const reference = dialog.getByLabel('Reference', { exact: true });
    expect(await reference.getAttribute('aria-invalid')).toBe('true');
    await expectFocused(reference);
  });

  step('phone: Deposit opens on the amount; a refused PIN leaves the cursor in the emptied PIN field', async () => {
    const { page } = await session('phone', kabir.token);
    await page.goto('/transactions');
    await page.getByRole('button', { name: 'DEPOSIT' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deposit Funds' });
    await expectFocused(dialog.getByLabel('Amount (₹)'));
    await dialog.getByRole('radio', { name: /^UPI/ }).check();
    await dialog.getByLabel('UPI ID').fill('kabir@okbank');
    await dialog.getByLabel('Amount (₹)').fill('100');
    await dialog.getByLabel('Reference', { exact: true }).fill('top up');
    await dialog.getByLabel('Transaction PIN', { exact: true }).fill(WRONG_PIN);
    await dialog.getByRole('button', { name: 'Submit deposit' }).click();
    // The approve step's right PIN reset the count: this is the first wrong one again.
    await expectPinRefused(
      dialog,
      'Transaction PIN',
      'Invalid transaction PIN. 4 attempts remaining before a 15-minute lock.',
    );
    await expectFocused(dialog.getByLabel('Transaction PIN', { exact: true }));
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    step(`desktop, ${colorScheme}: the focus ring is at least 3:1 against the page and the cards`, async () => {
      const { context, page } = await openPage(browser, base, 'desktop', kabir.token, { colorScheme });
      await page.goto('/transactions');
      await page.getByRole('button', { name: 'DEPOSIT' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(colorScheme);
      // From the keyboard, so :focus-visible applies as it does for a keyboard user.
      await page.getByRole('button', { name: 'SEND', exact: true }).focus();
      await page.keyboard.press('Shift+Tab');
      expect(await page.evaluate(() => (document.activeElement?.textContent ?? '').trim())).toBe('DEPOSIT');
      // Polled: the theme's colours settle after the first paint; what counts is the ring as it stays.
      await expect.poll(() => ringContrast(page), { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
      await context.close();
    });
  }
});

/** Rupees in en-IN grouping with both decimals: ₹4,850.00. */
const PAISA = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

describe("issue 43's rough edges: one format", () => {
  for (const viewport of VIEWPORT_NAMES) {
    step(
      `${viewport}: the balance reads to the paisa (₹4,850.00) on the dashboard and on Transactions alike`,
      async () => {
        const me = await api<{ balance: number }>('POST', '/api/users/get-user-info', kabir.token);
        const expected = `₹${PAISA.format(me.balance)}`;
        const { page } = await session(viewport, kabir.token);
        await page.goto('/dashboard');
        await expectText(dashboardBalance(page), expected);
        await page.goto('/transactions');
        await expectText(transactionsBalance(page), expected);
      },
    );
  }

  step('desktop: a pasted note past 200 characters is kept, counted, and refused with its reason', async () => {
    const { page } = await session('desktop', kabir.token);
    await page.goto('/transactions');
    await page.getByRole('button', { name: 'SEND', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Transfer Funds' });
    await verifyReceiver(dialog, 'Receiver account number', meera.id);
    await dialog.getByLabel('Amount (₹)').fill('20');
    const reference = dialog.getByLabel('Reference', { exact: true });
    await reference.fill('x'.repeat(205));
    expect((await reference.inputValue()).length).toBe(205);
    await expectText(dialog.locator('.field-counter'), '205/200');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expectText(
      dialog.locator(`#${await reference.getAttribute('aria-describedby')}`),
      'Reference must be at most 200 characters',
    );
    await expectFocused(reference);
  });
});

describe("issue 43's rough edges: small ones", () => {
  for (const [viewport, language, reason] of [
    ['desktop', 'en', 'Google sign-in is not configured on this server.'],
    ['phone', 'hi', 'इस सर्वर पर Google साइन-इन सेट नहीं है।'],
  ] as const) {
    step(`${viewport}, ${language}: Continue with Google is disabled, with the reason as its description`, async () => {
      const page = language === 'hi' ? await hindiSession(viewport) : (await session(viewport)).page;
      await page.goto('/login');
      const google = page.getByRole('button', { name: /Google/ });
      await expect.poll(() => google.isDisabled(), { timeout: 15_000 }).toBe(true);
      await expectText(page.locator(`#${await google.getAttribute('aria-describedby')}`), reason);
    });
  }

  step("phone: the dashboard's Add Money opens the deposit dialog, on its amount", async () => {
    const { page } = await session('phone', kabir.token);
    await page.goto('/dashboard');
    await page.getByRole('link', { name: 'Add Money' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deposit Funds' });
    await expectFocused(dialog.getByLabel('Amount (₹)'));
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    // Closed, it stays closed on a reload.
    await page.reload();
    await page.getByRole('button', { name: 'DEPOSIT' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  step('desktop: the register page links to the Terms and Privacy pages, in a new tab', async () => {
    const { context, page } = await session('desktop');
    await page.goto('/register');
    for (const [name, heading] of [
      ['Terms of Service', 'Terms of Service'],
      ['Privacy Policy', 'Privacy Policy'],
    ] as const) {
      const opened = context.waitForEvent('page');
      await page.getByRole('link', { name: new RegExp(`^${name}`) }).click();
      const tab = await opened;
      await tab.getByRole('heading', { level: 1, name: heading }).waitFor();
      await tab.close();
    }
    // The form stayed where it was.
    await page.getByRole('form', { name: 'Register' }).waitFor();
  });

  step('phone: "Registration successful" is said once, without "!."', async () => {
    const { page } = await session('phone');
    const said: string[] = [];
    await page.exposeFunction('noteToast', (text: string) => said.push(text));
    await page.addInitScript(() => {
      new MutationObserver(() => {
        for (const toast of document.querySelectorAll('[data-testid="toast"]'))
          if (!toast.hasAttribute('data-noted')) {
            toast.setAttribute('data-noted', '');
            (window as unknown as { noteToast: (text: string) => void }).noteToast(
              (toast.textContent ?? '').replace('×', '').trim(),
            );
          }
      }).observe(document, { childList: true, subtree: true });
    });
    await register(page, {
      firstName: 'Ira',
      lastName: 'Menon',
      email: 'ira.menon.rough@example.in',
      contactNo: '+91 98222 33445',
      identification: 'PAN Card',
      identificationNumber: 'ABCDE9876F',
      address: '12 Hill Road, Shillong 793001',
      password: 'rough-edges-pass-43b',
      pin: '4826',
    });
    expect(said.filter((text) => /registration successful/i.test(text))).toEqual(['Registration successful']);
    // The page after it goes on to what happens next (the toast, still up, is not the page).
    const pageText = await page.evaluate(() => {
      const copy = document.body.cloneNode(true) as HTMLElement;
      for (const toast of copy.querySelectorAll('.toast-viewport, [data-testid="toast"]')) toast.remove();
      return copy.textContent ?? '';
    });
    expect(pageText).not.toMatch(/registration successful/i);
    expect(pageText).toContain('Almost there');
  });
});

describe("issue 43's rough edges: Hindi", () => {
  step('phone, Hindi: the ID type, the time of day and the chart months are in Hindi', async () => {
    const page = await hindiSession('phone', kabir.token);
    await page.goto('/dashboard');
    const profile = page.locator('.profile-list');
    await expect.poll(() => textOf(profile), { timeout: 15_000 }).toContain('पैन कार्ड');
    expect(await textOf(profile)).not.toContain('PAN Card');
    // The money in / out bars are labelled by month in Hindi ("नव॰ 26", not "Nov 26").
    const ticks = page.getByTestId('money-in-out-chart').locator('.recharts-cartesian-axis-tick-value');
    const tickText = async () => (await ticks.allTextContents()).join(' ');
    await expect.poll(tickText, { timeout: 15_000 }).toMatch(/[\u0900-\u097F]/);
    expect(await tickText()).not.toMatch(/\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b/);
    await page.goto('/transactions');
    const when = page.locator('.list-card', { hasText: 'concert ticket' }).locator('.muted.small');
    await expect.poll(() => textOf(when), { timeout: 15_000 }).toMatch(/(पूर्वाह्न|अपराह्न) ·/);
    expect(await textOf(when)).not.toMatch(/\b(am|pm)\b/);
  });
});

describe("issue 43's rough edges: axe", () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    step(
      `desktop, ${colorScheme}: axe finds nothing serious on the Reject confirmation and the sign-in page`,
      async () => {
        const found: string[] = [];
        const report = async (where: string, page: Page) => {
          for (const violation of await seriousViolations(page))
            found.push(`${where}: ${violation.id} ${violation.help} ${violation.targets.join(' ')}`);
        };
        await api('POST', '/api/requests/send-request', kabir.token, {
          receiver: meera.id,
          amount: 60,
          reference: `axe ${colorScheme}`,
        });
        const { context, page } = await openPage(browser, base, 'desktop', meera.token, {
          colorScheme,
          bypassCSP: true,
        });
        await page.goto('/requests');
        const row = page.getByRole('table', { name: 'Received requests' }).locator('tbody tr', {
          hasText: `axe ${colorScheme}`,
        });
        await row.getByRole('button', { name: 'Reject' }).click();
        await page.getByRole('dialog', { name: 'Reject request' }).waitFor();
        await report('reject confirmation', page);
        const guest = await openPage(browser, base, 'desktop', undefined, { colorScheme, bypassCSP: true });
        await guest.page.goto('/login');
        await guest.page.getByRole('button', { name: /Google/ }).waitFor();
        await report('sign-in', guest.page);
        await guest.context.close();
        await context.close();
        expect(found.join('\n')).toBe('');
      },
    );
  }
});

describe("issue 43's rough edges: focus after paying, Hindi form errors and font, /docs#section", () => {
  step('desktop: after paying, focus is on the success message, not back on SEND', async () => {
    const { page } = await session('desktop', kabir.token);
    await page.goto('/transactions');
    await page.getByRole('button', { name: 'SEND', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Transfer Funds' });
    await verifyReceiver(dialog, 'Receiver account number', meera.id);
    await dialog.getByLabel('Amount (₹)').fill('12');
    await dialog.getByLabel('Reference', { exact: true }).fill('focus after paying');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await confirmAndPay(dialog, 'Pay ₹12.00 to Meera Iyer', KABIR_PIN);
    await dialog.waitFor({ state: 'detached' });
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');
    await expect.poll(focused, { timeout: 15_000 }).toContain('Transfer completed successfully!');
    // Focused, the message stays up (radix-ui pauses its timer) past its 4 s.
    await page.waitForTimeout(4_500);
    expect(await focused()).toContain('Transfer completed successfully!');
  });

  step('phone, Hindi: after paying, focus is on the success message', async () => {
    const page = await hindiSession('phone', kabir.token);
    await page.goto('/transactions');
    await page.getByRole('button', { name: 'भेजें', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'पैसे भेजें' });
    await dialog.getByLabel('पाने वाले की खाता संख्या', { exact: true }).fill(meera.id);
    await dialog.getByRole('button', { name: 'सत्यापित करें', exact: true }).click();
    await dialog.locator('.verified-panel').waitFor();
    await dialog.getByLabel('राशि (₹)').fill('11');
    await dialog.getByLabel('संदर्भ', { exact: true }).fill('focus after paying, Hindi');
    await dialog.getByRole('button', { name: 'आगे बढ़ें' }).click();
    await dialog.getByRole('button', { name: 'पुष्टि करें', exact: true }).click();
    await dialog.getByLabel('ट्रांज़ैक्शन PIN', { exact: true }).fill(KABIR_PIN);
    await dialog.getByRole('button', { name: 'भुगतान करें', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? '');
    await expect.poll(focused, { timeout: 15_000 }).toBe('toast');
  });

  step('phone, Hindi: a refused Continue says the shared rules in Hindi under their fields', async () => {
    const page = await hindiSession('phone', kabir.token);
    await page.goto('/transactions');
    await page.getByRole('button', { name: 'भेजें', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'पैसे भेजें' });
    await dialog.getByLabel('संदर्भ', { exact: true }).fill('ab');
    await dialog.getByRole('button', { name: 'आगे बढ़ें' }).click();
    const reasonOf = async (label: string) =>
      textOf(dialog.locator(`#${await dialog.getByLabel(label, { exact: true }).getAttribute('aria-describedby')}`));
    await expect.poll(() => reasonOf('राशि (₹)'), { timeout: 15_000 }).toBe('राशि डालना ज़रूरी है');
    expect(await reasonOf('संदर्भ')).toBe('संदर्भ कम से कम 3 अक्षरों का होना चाहिए');
  });

  step('phone, Hindi: the app ships its own Devanagari font and draws Hindi with it', async () => {
    const page = await hindiSession('phone', kabir.token);
    await page.goto('/dashboard');
    await page.getByRole('heading', { level: 1 }).waitFor();
    const loaded = async () =>
      page.evaluate(async () => {
        await document.fonts.ready;
        return [...document.fonts]
          .filter((face) => face.family.replace(/"/g, '') === 'Noto Sans Devanagari' && face.status === 'loaded')
          .map((face) => face.weight);
      });
    await expect.poll(loaded, { timeout: 15_000 }).toContain('400');
    // Served by the app itself: nothing is fetched from a font host.
    const sources = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .filter((name) => name.endsWith('.woff2')),
    );
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect(new URL(source).origin).toBe(new URL(page.url()).origin);
  });

  step("desktop, English: the language choice 'हिन्दी' is drawn with the shipped font, its one face alone", async () => {
    const { page } = await session('desktop', kabir.token);
    await page.goto('/transactions');
    await transactionsBalance(page).waitFor();
    const seen = await page.evaluate(async () => {
      await document.fonts.ready;
      return {
        // The only Devanagari on an English page is the language switch's own name for Hindi.
        devanagari: [...document.querySelectorAll('body *')]
          .filter((element) => element.children.length === 0 && /[\u0900-\u097F]/.test(element.textContent ?? ''))
          .map((element) => element.textContent),
        fetched: performance
          .getEntriesByType('resource')
          .map((entry) => entry.name)
          .filter((name) => name.includes('devanagari')),
      };
    });
    expect(seen.devanagari).toEqual(['हिन्दी']);
    // One face (the switch's weight), not the three a Hindi page uses.
    expect(seen.fetched).toHaveLength(1);
  });

  for (const [viewport, language, heading] of [
    ['desktop', 'en', 'Adding money'],
    ['phone', 'hi', 'पैसे जोड़ना'],
  ] as const) {
    step(`${viewport}, ${language}: /docs#deposit opened directly starts at the deposit section`, async () => {
      const page = language === 'hi' ? await hindiSession(viewport) : (await session(viewport)).page;
      await page.goto('/docs#deposit');
      const section = page.locator('section#deposit');
      const title = section.getByRole('heading', { level: 2 });
      await title.waitFor();
      expect(await textOf(title)).toBe(heading);
      await expect.poll(() => page.evaluate(() => window.scrollY), { timeout: 15_000 }).toBeGreaterThan(0);
      const box = await title.boundingBox();
      const height = VIEWPORTS[viewport].height;
      // Below the sticky top bar and on screen.
      expect(box && box.y >= 56 && box.y + box.height <= height).toBe(true);
    });
  }
});

describe("issue 43's rough edges: the admin's own name", () => {
  for (const [viewport, language, greeting] of [
    ['desktop', 'en', 'Hi Priya, Welcome'],
    ['phone', 'hi', 'नमस्ते Priya, स्वागत है'],
  ] as const) {
    step(`${viewport}, ${language}: the first admin is greeted by the name ADMIN_NAME gave, not "Wallet"`, async () => {
      const page =
        language === 'hi' ? await hindiSession(viewport, adminToken) : (await session(viewport, adminToken)).page;
      await page.goto('/dashboard');
      await expectText(page.getByRole('heading', { level: 1 }), greeting);
    });
  }
});

describe("issue 43's rough edges: the deposit dialog at 1280x800", () => {
  step('desktop: Submit deposit is on screen, not under the fold, for a bank transfer and for UPI', async () => {
    const { page } = await session('desktop', kabir.token);
    await page.goto('/transactions');
    await page.getByRole('button', { name: 'DEPOSIT' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deposit Funds' });
    const submit = dialog.getByRole('button', { name: 'Submit deposit' });
    /** The button's middle is inside the window and is the button itself (nothing drawn over it). */
    const inSight = () =>
      submit.evaluate((button) => {
        const box = button.getBoundingClientRect();
        const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
        return y > 0 && y < window.innerHeight && button.contains(document.elementFromPoint(x, y));
      });
    await submit.waitFor();
    await expect.poll(inSight, { timeout: 10_000 }).toBe(true);
    await dialog.getByRole('radio', { name: /^UPI/ }).check();
    await expect.poll(inSight, { timeout: 10_000 }).toBe(true);
  });
});
