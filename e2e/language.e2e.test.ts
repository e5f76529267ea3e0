/**
 * English and हिन्दी in a real browser against the real server: the language switch on the
 * public pages, the guest screens and the signed-in navigation; <html lang> following it; the
 * choice kept across reloads and new page loads; messages from the API staying English; and
 * back to English. Axe-core checks the Hindi sign-in screen (lang attributes, labels), and the
 * phone-width header with the switch must not scroll sideways.
 * One customer of its own is made through the API.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { seriousViolations } from './helpers/axe.ts';
import { activeCustomer, apiClient, expectNoSidewaysScroll, type Customer } from './helpers/api.ts';
import { launchBrowser, openPage } from './helpers/browser.ts';
import { OUTPUT_DIR } from './helpers/constants.ts';
import { serialRun } from './helpers/serial-run.ts';
import { toast } from './helpers/wallet.ts';
import { waitUntil } from '../test/wait.ts';

const base = inject('baseUrl');
const ADMIN = { email: inject('adminEmail'), password: inject('adminPassword') };
const PASSWORD = 'language-pass-31';
const POLL = { timeout: 15_000, interval: 150 } as const;

let browser: Browser;
let meera: Customer;
const api = apiClient(base);

const { pageErrors, session, step } = serialRun({ browser: () => browser, base, failurePrefix: 'failure-language-' });

function htmlLang(page: Page): Promise<string> {
  return page.evaluate(() => document.documentElement.lang);
}

function storedLanguage(page: Page): Promise<string | null> {
  return page.evaluate(() => window.localStorage.getItem('language'));
}

async function expectLang(page: Page, lang: 'en-IN' | 'hi-IN'): Promise<void> {
  await expect.poll(() => htmlLang(page), POLL).toBe(lang);
}

beforeAll(async () => {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  browser = await launchBrowser();
  const adminToken = await api<string>('POST', '/api/users/login', undefined, ADMIN);
  // On a loaded machine the PIN's bcrypt can outlast the server's 5 s bound: registration is
  // then refused (503, nothing created) and may simply be tried again.
  meera = await waitUntil(
    'Meera registered, activated and signed in',
    () =>
      activeCustomer(api, adminToken, {
        firstName: 'Meera',
        lastName: 'Iyer',
        email: 'meera.iyer.language@example.in',
        password: PASSWORD,
        pin: '1357',
        address: '4 Lake View Road, Chennai 600034',
        contactNo: '+91 98444 55667',
        identificationNumber: 'ABCDE4321F',
      }).catch((error: unknown) => {
        if (error instanceof Error && / 503 /.test(error.message)) return null;
        throw error;
      }),
    { timeoutMs: 90_000, intervalMs: 1_000 },
  );
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('English and हिन्दी, switchable and remembered', () => {
  let page: Page;

  step('the landing page starts in English and switches to Hindi in its header', async () => {
    ({ page } = await session('desktop'));
    await page.goto('/');
    expect(await htmlLang(page)).toBe('en-IN');
    const header = page.getByRole('navigation', { name: 'Site' });
    await header.getByRole('combobox', { name: 'Language' }).selectOption('hi');
    await expectLang(page, 'hi-IN');
    // The header itself answers in Hindi: its navigation and the switch's label.
    await page.getByRole('navigation', { name: 'साइट' }).getByRole('combobox', { name: 'भाषा' }).waitFor();
    expect(await storedLanguage(page)).toBe('hi');
  });

  step('the choice is remembered: the sign-in screen loads in Hindi, also after a reload', async () => {
    await page.goto('/login');
    await page.getByRole('heading', { name: 'फिर से स्वागत है' }).waitFor();
    expect(await htmlLang(page)).toBe('hi-IN');
    await page.reload();
    await page.getByRole('heading', { name: 'फिर से स्वागत है' }).waitFor();
    await page.getByRole('form', { name: 'साइन इन' }).getByRole('button', { name: 'साइन इन करें' }).waitFor();
    expect(await htmlLang(page)).toBe('hi-IN');
  });

  step("the API's messages stay English in Hindi", async () => {
    const form = page.getByRole('form', { name: 'साइन इन' });
    await form.getByLabel('ईमेल').fill(meera.email);
    await form.getByLabel('पासवर्ड', { exact: true }).fill('not-the-password-1');
    await form.getByRole('button', { name: 'साइन इन करें' }).click();
    await toast(page, 'Invalid email or password');
  });

  step('signed in, the navigation is in Hindi and keeps it across a reload', async () => {
    const form = page.getByRole('form', { name: 'साइन इन' });
    await form.getByLabel('पासवर्ड', { exact: true }).fill(PASSWORD);
    await form.getByRole('button', { name: 'साइन इन करें' }).click();
    await toast(page, 'लॉगिन सफल! फिर से स्वागत है।');
    await page.waitForURL('**/dashboard');
    const nav = page.getByRole('navigation', { name: 'मुख्य' });
    await nav.getByRole('link', { name: 'डैशबोर्ड' }).waitFor();
    await nav.getByRole('link', { name: 'लेन-देन' }).waitFor();
    expect(await nav.getByText('व्यक्तिगत खाता').count()).toBe(1);
    await page.reload();
    await nav.getByRole('link', { name: 'अनुरोध' }).waitFor();
    expect(await htmlLang(page)).toBe('hi-IN');
  });

  step('the dashboard and the transactions page are in Hindi', async () => {
    await page.getByRole('heading', { name: 'नमस्ते Meera, स्वागत है', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'हाल की गतिविधि' }).waitFor();
    await page.getByRole('navigation', { name: 'मुख्य' }).getByRole('link', { name: 'लेन-देन' }).click();
    await page.waitForURL('**/transactions');
    await page.getByRole('heading', { name: 'लेन-देन', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'स्कैन करके भुगतान' }).waitFor();
    await page.getByRole('combobox', { name: 'प्रकार फ़िल्टर' }).waitFor();
  });

  step('the side navigation switches back to English, and that is remembered too', async () => {
    await page.getByRole('navigation', { name: 'मुख्य' }).getByRole('combobox', { name: 'भाषा' }).selectOption('en');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Dashboard' }).waitFor();
    await expectLang(page, 'en-IN');
    expect(await nav.getByRole('link', { name: 'डैशबोर्ड' }).count()).toBe(0);
    await page.reload();
    await nav.getByRole('link', { name: 'Transactions' }).waitFor();
    expect(await htmlLang(page)).toBe('en-IN');
    expect(await storedLanguage(page)).toBe('en');
  });

  step('Hindi at phone width: the public headers fit, and the sign-in screen passes axe', async () => {
    const phone = await openPage(browser, base, 'phone', undefined, { bypassCSP: true });
    try {
      await phone.context.addInitScript(() => window.localStorage.setItem('language', 'hi'));
      // Every public header gained the switch: each must still fit a phone, in the longer language.
      for (const [path, heading] of [
        ['/docs', 'वॉलेट कैसे काम करता है'],
        ['/architecture', 'आर्किटेक्चर का परिचय'],
      ] as const) {
        await phone.page.goto(path);
        await phone.page.getByRole('heading', { name: heading, level: 1 }).waitFor();
        await expectNoSidewaysScroll(phone.page);
      }
      await phone.page.goto('/');
      await phone.page.getByRole('combobox', { name: 'भाषा' }).waitFor();
      await expectNoSidewaysScroll(phone.page);
      await phone.page.goto('/login');
      await phone.page.getByRole('heading', { name: 'फिर से स्वागत है' }).waitFor();
      expect(await htmlLang(phone.page)).toBe('hi-IN');
      await expectNoSidewaysScroll(phone.page);
      expect(await seriousViolations(phone.page)).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });

  step('no page threw or broke the Content-Security-Policy', async () => {
    expect(pageErrors).toEqual([]);
  });
});
