/**
 * Paying people the way they already do (issue 43 items 1 and 2), in a real browser against
 * the real server, at desktop width in English and on a phone in Hindi: a payee chooses a
 * handle on the dashboard; the payer pays a mobile number and a handle from the send dialog,
 * whose confirmation shows the payee's name and the number masked but for its last four (or the
 * handle) before the PIN; a recent payee on the dashboard opens the send dialog filled and
 * verified, and one in the send dialog fills it with one tap. The axe scan of these screens is
 * clean in the light and dark themes. Money moved is checked through the API's balances.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { activeCustomer, apiClient, type Customer } from './helpers/api.ts';
import { seriousViolations } from './helpers/axe.ts';
import { launchBrowser, openPage, type ViewportName } from './helpers/browser.ts';
import { serialRun } from './helpers/serial-run.ts';
import { expectText } from './helpers/wallet.ts';

const base = inject('baseUrl');
const ADMIN = { email: inject('adminEmail'), password: inject('adminPassword') };
const PIN = '2468';

/** The words the steps look for, in each language (web/src/i18n/resources). */
const WORDS = {
  en: {
    send: 'SEND',
    dialog: 'Transfer Funds',
    receiver: 'Receiver account number',
    verify: 'Verify',
    amount: 'Amount (₹)',
    reference: 'Reference',
    continue: 'Continue',
    confirm: 'Confirm',
    pin: 'Transaction PIN',
    pay: 'Pay',
    mobile: 'Mobile',
    handle: 'Handle',
    recent: 'Recent payees',
    payName: (name: string) => `Pay ${name}`,
    confirmTitle: (amount: string, name: string) => `Pay ${amount} to ${name}`,
    chooseHandle: 'Choose your handle',
    saveHandle: 'Save handle',
    yourHandle: 'Your handle',
  },
  hi: {
    send: 'भेजें',
    dialog: 'पैसे भेजें',
    receiver: 'पाने वाले की खाता संख्या',
    verify: 'सत्यापित करें',
    amount: 'राशि (₹)',
    reference: 'संदर्भ',
    continue: 'आगे बढ़ें',
    confirm: 'पुष्टि करें',
    pin: 'ट्रांज़ैक्शन PIN',
    pay: 'भुगतान करें',
    mobile: 'मोबाइल',
    handle: 'हैंडल',
    recent: 'हाल के प्राप्तकर्ता',
    payName: (name: string) => `${name} को भुगतान करें`,
    confirmTitle: (amount: string, name: string) => `${name} को ${amount} का भुगतान करें`,
    chooseHandle: 'अपना हैंडल चुनें',
    saveHandle: 'हैंडल सहेजें',
    yourHandle: 'आपका हैंडल',
  },
} as const;
type Language = keyof typeof WORDS;

const RUNS: { viewport: ViewportName; language: Language; handle: string }[] = [
  { viewport: 'desktop', language: 'en', handle: 'divya.n' },
  { viewport: 'phone', language: 'hi', handle: 'farhan.a' },
];

let browser: Browser;
let kavya: Customer;
let arjun: Customer;
const handlers: Record<string, Customer> = {};

const api = apiClient(base);
const { session, step, pageErrors } = serialRun({ browser: () => browser, base, failurePrefix: 'failure-payees-' });

async function balanceOf(customer: Customer): Promise<number> {
  return (await api<{ balance: number }>('POST', '/api/users/get-user-info', customer.token, {})).balance;
}

/** A signed-in page in the run's language. */
async function pageFor(customer: Customer, viewport: ViewportName, language: Language): Promise<Page> {
  const { context, page } = await session(viewport, customer.token);
  await context.addInitScript((value) => window.localStorage.setItem('language', value), language);
  return page;
}

async function openSend(page: Page, words: (typeof WORDS)[Language]): Promise<Locator> {
  await page.goto('/transactions');
  await page.getByRole('button', { name: words.send, exact: true }).click();
  return page.getByRole('dialog', { name: words.dialog });
}

/** Types a payee, verifies it, fills the payment and stops at the confirmation. */
async function reviewPayment(
  dialog: Locator,
  words: (typeof WORDS)[Language],
  payee: string,
  amount: string,
): Promise<void> {
  await dialog.getByLabel(words.receiver, { exact: true }).fill(payee);
  await dialog.getByRole('button', { name: words.verify, exact: true }).click();
  await dialog.locator('.verified-panel').waitFor();
  await fillAndContinue(dialog, words, amount);
}

async function fillAndContinue(dialog: Locator, words: (typeof WORDS)[Language], amount: string): Promise<void> {
  await dialog.getByLabel(words.amount, { exact: true }).fill(amount);
  await dialog.getByLabel(words.reference, { exact: true }).fill('issue 43 payment');
  await dialog.getByRole('button', { name: words.continue, exact: true }).click();
}

async function confirmWithPin(dialog: Locator, words: (typeof WORDS)[Language]): Promise<void> {
  await dialog.getByRole('button', { name: words.confirm, exact: true }).click();
  await dialog.getByLabel(words.pin, { exact: true }).fill(PIN);
  await dialog.getByRole('button', { name: words.pay, exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** The confirmation's details: each label with its value, as shown. */
async function confirmationDetails(dialog: Locator): Promise<string[]> {
  return dialog.locator('dl > div').evaluateAll((rows) => rows.map((row) => row.textContent?.trim() ?? ''));
}

beforeAll(async () => {
  browser = await launchBrowser();
  const adminToken = await api<string>('POST', '/api/users/login', undefined, ADMIN);
  const customer = (firstName: string, lastName: string, contactNo: string) =>
    activeCustomer(api, adminToken, {
      firstName,
      lastName,
      email: `${firstName.toLowerCase()}.${lastName.toLowerCase()}.payees@example.in`,
      password: 'payees-pass-43',
      pin: PIN,
      address: '7 Residency Road, Bengaluru 560025',
      contactNo,
    });
  kavya = await customer('Kavya', 'Reddy', '+91 90043 10001');
  arjun = await customer('Arjun', 'Mehta', '+91 90043 10002');
  handlers['divya.n'] = await customer('Divya', 'Nair', '+91 90043 10003');
  handlers['farhan.a'] = await customer('Farhan', 'Ali', '+91 90043 10004');
  await api('POST', '/api/transactions/deposit-funds', kavya.token, {
    amount: 5000,
    reference: 'card top up',
    transactionPin: PIN,
    paymentMethod: 'card',
    paymentMethodId: 'pm_sandbox_4242',
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('paying a mobile number, a handle and a recent payee', () => {
  for (const { viewport, language, handle } of RUNS) {
    const words = WORDS[language];
    const tag = `${viewport}, ${language}`;

    step(`${tag}: a payee chooses a handle on the dashboard; it shows on the profile`, async () => {
      const payee = handlers[handle] as Customer;
      const page = await pageFor(payee, viewport, language);
      await page.goto('/dashboard');
      await page.getByLabel(words.chooseHandle, { exact: true }).fill(`${handle.toUpperCase()}@wallet`);
      await page.getByRole('button', { name: words.saveHandle, exact: true }).click();
      const profile = page.locator('.profile-card');
      await expectText(profile.locator('dl > div', { hasText: words.yourHandle }).locator('dd'), `${handle}@wallet`);
      expect(await page.getByLabel(words.chooseHandle, { exact: true }).count()).toBe(0);
    });

    step(`${tag}: pays a mobile number, confirmed with the name and the number masked`, async () => {
      const before = await balanceOf(arjun);
      const page = await pageFor(kavya, viewport, language);
      const dialog = await openSend(page, words);
      await reviewPayment(dialog, words, '090043 10002', '40');
      await expectText(dialog.getByTestId('confirm-pay-title'), words.confirmTitle('₹40.00', 'Arjun Mehta'));
      expect(await confirmationDetails(dialog)).toContain(`${words.mobile}XXXXXX0002`);
      expect(await dialog.textContent()).not.toContain(arjun.id);
      await confirmWithPin(dialog, words);
      await expect.poll(() => balanceOf(arjun)).toBe(before + 40);
    });

    step(`${tag}: pays a handle, confirmed with the name and the handle`, async () => {
      const payee = handlers[handle] as Customer;
      const before = await balanceOf(payee);
      const page = await pageFor(kavya, viewport, language);
      const dialog = await openSend(page, words);
      await reviewPayment(dialog, words, `${handle}@wallet`, '25.50');
      await expectText(dialog.getByTestId('confirm-pay-title'), words.confirmTitle('₹25.50', payee.name));
      expect(await confirmationDetails(dialog)).toContain(`${words.handle}${handle}@wallet`);
      await confirmWithPin(dialog, words);
      await expect.poll(() => balanceOf(payee)).toBe(before + 25.5);
    });

    step(`${tag}: a recent payee on the dashboard opens the send dialog filled and verified`, async () => {
      const before = await balanceOf(arjun);
      const page = await pageFor(kavya, viewport, language);
      await page.goto('/dashboard');
      const recent = page.getByRole('navigation', { name: words.recent });
      await recent.getByRole('link', { name: words.payName('Arjun Mehta'), exact: true }).click();
      const dialog = page.getByRole('dialog', { name: words.dialog });
      await dialog.locator('.verified-panel').waitFor();
      expect(await dialog.getByLabel(words.receiver, { exact: true }).inputValue()).toBe(arjun.id);
      await fillAndContinue(dialog, words, '10');
      await expectText(dialog.getByTestId('confirm-pay-title'), words.confirmTitle('₹10.00', 'Arjun Mehta'));
      // An account number is masked but for its last four too.
      expect(await confirmationDetails(dialog)).toContain(
        `${language === 'en' ? 'Account' : 'खाता'}XXXXXX${arjun.id.slice(-4)}`,
      );
      await confirmWithPin(dialog, words);
      await expect.poll(() => balanceOf(arjun)).toBe(before + 10);
    });

    step(`${tag}: a recent payee in the send dialog fills the payee with one tap`, async () => {
      const payee = handlers[handle] as Customer;
      const page = await pageFor(kavya, viewport, language);
      const dialog = await openSend(page, words);
      await dialog.getByRole('button', { name: words.payName(payee.name), exact: true }).click();
      await dialog.locator('.verified-panel').waitFor();
      expect(await dialog.getByLabel(words.receiver, { exact: true }).inputValue()).toBe(payee.id);
    });
  }

  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      step(
        `axe-core, ${viewport}, ${colorScheme}: the dashboard's payees and handle form, the send dialog's payees and confirmation`,
        async () => {
          const found: string[] = [];
          const report = async (where: string, page: Page) => {
            for (const violation of await seriousViolations(page))
              found.push(`${where}: ${violation.id} ${violation.help} ${violation.targets.join(' ')}`);
          };
          const { context, page } = await openPage(browser, base, viewport, kavya.token, {
            colorScheme,
            bypassCSP: true,
          });
          await page.goto('/dashboard');
          await page.getByRole('navigation', { name: WORDS.en.recent }).waitFor();
          await page.getByLabel(WORDS.en.chooseHandle, { exact: true }).waitFor();
          expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(colorScheme);
          await report('dashboard', page);
          const dialog = await openSend(page, WORDS.en);
          await dialog.getByRole('navigation', { name: WORDS.en.recent }).waitFor();
          await report('send dialog with recent payees', page);
          await reviewPayment(dialog, WORDS.en, 'divya.n@wallet', '1');
          await dialog.getByTestId('confirm-pay-title').waitFor();
          await report('confirmation by handle', page);
          await context.close();
          expect(found.join('\n')).toBe('');
        },
        120_000,
      );
    }
  }

  step('no page threw an uncaught error', async () => {
    expect(pageErrors).toEqual([]);
  });
});
