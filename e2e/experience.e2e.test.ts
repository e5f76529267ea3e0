/**
 * What users expect besides the money itself, in a real browser against the real server
 * (started by e2e/global-setup.ts): the confirmation before the PIN ("Pay ₹1,00,000.00 to
 * Vikram Nair", grouped amounts as typed), dark mode (the toggle, kept across reloads, and the
 * system's scheme), the payment QR downloaded as a PNG that decodes to the account and shared
 * (the PNG through the share sheet, a download where there is none), the not-found and error
 * pages, the phone menu as a focus-trapped dialog, and axe-core over every screen (the admin's
 * with a deposit waiting for review and a customer waiting for activation, so every kind of
 * button is on screen) in the light and dark themes at both widths.
 * Two customers of its own are made and funded through the API; desktop and phone
 * screenshots of each new screen go to test-output/screenshots/.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import type { Browser, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { exposedInAccessibilityTree, seriousViolations } from './helpers/axe.ts';
import { activeCustomer, apiClient, type Customer } from './helpers/api.ts';
import { launchBrowser, openPage, screenshot, type ViewportName } from './helpers/browser.ts';
import { OUTPUT_DIR, SCREENSHOT_DIR } from './helpers/constants.ts';
import { serialRun } from './helpers/serial-run.ts';
import { waitUntil } from '../test/wait.ts';
import { confirmAndPay, expectText, toast, transactionsBalance, verifyReceiver } from './helpers/wallet.ts';

// jsqr is CommonJS with a `default` export: under nodenext the default import is module.exports.
const jsQR = jsQRModule.default;
/**
 * What the page does after an input (a theme repaint, radix hiding the page behind a dialog in an
 * effect) can take more than expect.poll's default 1 s on a loaded 2-core machine.
 */
const UI_POLL = { timeout: 15_000, interval: 150 } as const;
const base = inject('baseUrl');
const ADMIN = { email: inject('adminEmail'), password: inject('adminPassword') };
const PASSWORD = 'experience-pass-26';
const PIN = '2468';
const LIGHT_BACKGROUND = 'rgb(248, 250, 252)';
const DARK_BACKGROUND = 'rgb(11, 18, 32)';

let browser: Browser;
let adminToken = '';
let neha: Customer;
let vikram: Customer;

const api = apiClient(base);

async function customer(firstName: string, lastName: string, email: string): Promise<Customer> {
  return activeCustomer(api, adminToken, {
    firstName,
    lastName,
    email,
    password: PASSWORD,
    pin: PIN,
    address: '21 Residency Road, Bengaluru 560025',
    contactNo: '+91 98222 33445',
    identificationNumber: 'ABCDE6789F',
  });
}

/** A sandbox card deposit credits at once (the card 4242 4242 4242 4242). */
async function cardDeposit(who: Customer, amount: number): Promise<void> {
  await api('POST', '/api/transactions/deposit-funds', who.token, {
    amount,
    reference: 'card top up',
    transactionPin: PIN,
    paymentMethod: 'card',
    paymentMethodId: 'pm_sandbox_4242',
  });
}

/** The QR text of a PNG file (as the downloads hand it over). */
function qrTextOf(path: string): string {
  const bytes = readFileSync(path);
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const image = PNG.sync.read(bytes);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? '';
}

async function downloadedQr(download: Download, who: Customer): Promise<void> {
  expect(download.suggestedFilename()).toBe(`rupee-wallet-qr-${who.id}.png`);
  expect(qrTextOf((await download.path()) ?? '')).toMatch(new RegExp(`/user/${who.id}$`));
}

function bodyBackground(page: Page): Promise<string> {
  return page.evaluate(() => getComputedStyle(document.body).backgroundColor);
}

const { pageErrors, session, sessions, step } = serialRun({
  browser: () => browser,
  base,
  failurePrefix: 'failure-experience-',
});

async function closeSession(page: Page): Promise<void> {
  await page.context().close();
  sessions.splice(
    sessions.findIndex((opened) => opened.page === page),
    1,
  );
}

beforeAll(async () => {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  browser = await launchBrowser();
  adminToken = await api<string>('POST', '/api/users/login', undefined, ADMIN);
  neha = await customer('Neha', 'Kapoor', 'neha.kapoor@example.in');
  vikram = await customer('Vikram', 'Nair', 'vikram.nair.exp@example.in');
  await cardDeposit(neha, 100000);
  await cardDeposit(neha, 5000);
  // For the scans of the Users page: a deposit waiting for review (Settle and Fail on its row)
  // and a customer waiting for activation (Activate), so every kind of button is checked.
  await api('POST', '/api/transactions/deposit-funds', vikram.token, {
    amount: 750,
    reference: 'upi top up',
    transactionPin: PIN,
    paymentMethod: 'upi',
    upiDetails: { upiId: 'vikram@okaxis' },
  });
  await registerOnly({
    firstName: 'Isha',
    lastName: 'Menon',
    email: 'isha.menon.exp@example.in',
    contactNo: '+91 98222 33446',
    identification: 'PAN Card',
    identificationNumber: 'ABCDE6790F',
    address: '4 Marine Drive, Kochi 682031',
    password: PASSWORD,
    transactionPin: PIN,
  });
}, 120_000);

/**
 * A registration left waiting for activation. A 503 (the PIN hashing pool is full on a loaded
 * machine: "try again in a moment") is retried, as a client would.
 */
async function registerOnly(body: Record<string, string>): Promise<void> {
  await waitUntil(
    `${body.email ?? ''} registered`,
    async () => {
      try {
        await api('POST', '/api/users/register', undefined, body);
        return true;
      } catch (error) {
        if (error instanceof Error && error.message.startsWith('POST /api/users/register: 503')) return false;
        throw error;
      }
    },
    { timeoutMs: 60_000, intervalMs: 500 },
  );
}

afterAll(async () => {
  await browser?.close();
});

describe('what users expect, in a real browser', () => {
  for (const [viewport, typed, shown, confirmation, balanceAfter] of [
    ['desktop', '100000', '1,00,000', 'Pay ₹1,00,000.00 to Vikram Nair', '₹5,000.00'],
    ['phone', '1500.5', '1,500.5', 'Pay ₹1,500.50 to Vikram Nair', '₹3,499.50'],
  ] as const) {
    step(
      `${viewport}: the amount groups as typed and the payment is confirmed with the verified name before the PIN`,
      async () => {
        const { page } = await session(viewport, neha.token);
        await page.goto('/transactions');
        await transactionsBalance(page).waitFor();
        await page.getByRole('button', { name: 'SEND', exact: true }).click();
        const send = page.getByRole('dialog', { name: 'Transfer Funds' });
        await verifyReceiver(send, 'Receiver account number', vikram.id);
        const amount = send.getByLabel('Amount (₹)');
        await amount.pressSequentially(typed);
        expect(await amount.inputValue()).toBe(shown);
        await send.getByLabel('Reference', { exact: true }).fill('flat deposit');
        await send.getByRole('button', { name: 'Continue', exact: true }).click();
        await expectText(send.getByTestId('confirm-pay-title'), confirmation);
        await send.getByText('flat deposit', { exact: true }).waitFor();
        await screenshot(page, SCREENSHOT_DIR, 'dialog-confirm-payment', viewport, false);
        // Back keeps what was typed.
        await send.getByRole('button', { name: 'Back', exact: true }).click();
        expect(await send.getByLabel('Amount (₹)').inputValue()).toBe(shown);
        await send.getByRole('button', { name: 'Continue', exact: true }).click();
        await confirmAndPay(send, confirmation, PIN);
        await toast(page, 'Transfer completed successfully!');
        await send.waitFor({ state: 'detached' });
        await expectText(transactionsBalance(page), balanceAfter);
        await closeSession(page);
      },
    );
  }

  step('phone: approving a request shows "Pay ₹250.75 to Vikram Nair" before the PIN', async () => {
    await api('POST', '/api/requests/send-request', vikram.token, {
      receiver: neha.id,
      amount: 250.75,
      reference: 'cab share',
    });
    const { page } = await session('phone', neha.token);
    await page.goto('/requests');
    await page.getByRole('tab', { name: 'Received (1)' }).waitFor();
    // The received pending request's buttons are in sight on its card, without opening it.
    await page.getByRole('button', { name: 'Approve' }).first().click();
    const approve = page.getByRole('dialog', { name: 'Approve request' });
    await expectText(approve.getByTestId('confirm-pay-title'), 'Pay ₹250.75 to Vikram Nair');
    await screenshot(page, SCREENSHOT_DIR, 'dialog-confirm-approve', 'phone', false);
    await confirmAndPay(approve, 'Pay ₹250.75 to Vikram Nair', PIN, 'Approve and pay');
    await toast(page, 'Request approved successfully');
    await approve.waitFor({ state: 'detached' });
    await closeSession(page);
  });

  for (const viewport of ['desktop', 'phone'] as const) {
    step(`${viewport}: dark mode follows the system, and the shell's toggle overrides it and is kept`, async () => {
      const { page } = await session(viewport, neha.token);
      await page.emulateMedia({ colorScheme: 'light' });
      await page.goto('/dashboard');
      await page.getByRole('heading', { name: 'Hi Neha, Welcome' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en-IN');
      expect(await bodyBackground(page)).toBe(LIGHT_BACKGROUND);
      // The system's scheme, while the choice is "System".
      await page.emulateMedia({ colorScheme: 'dark' });
      await expect.poll(() => bodyBackground(page), UI_POLL).toBe(DARK_BACKGROUND);
      await page.emulateMedia({ colorScheme: 'light' });
      await expect.poll(() => bodyBackground(page), UI_POLL).toBe(LIGHT_BACKGROUND);
      // The toggle: Dark wins over a light system and survives a reload.
      if (viewport === 'phone') await page.getByRole('button', { name: 'Open menu' }).click();
      const theme = page.getByRole('group', { name: 'Theme' });
      await theme.getByRole('button', { name: 'Dark' }).click();
      expect(await theme.getByRole('button', { name: 'Dark' }).getAttribute('aria-pressed')).toBe('true');
      await expect.poll(() => bodyBackground(page), UI_POLL).toBe(DARK_BACKGROUND);
      await page.reload();
      await page.getByRole('heading', { name: 'Hi Neha, Welcome' }).waitFor();
      expect(await bodyBackground(page)).toBe(DARK_BACKGROUND);
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
      await page.locator('.qr-box img').waitFor();
      await screenshot(page, SCREENSHOT_DIR, 'dashboard-dark', viewport);
      if (viewport === 'phone') await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('group', { name: 'Theme' }).getByRole('button', { name: 'Light' }).click();
      await expect.poll(() => bodyBackground(page), UI_POLL).toBe(LIGHT_BACKGROUND);
      await closeSession(page);
    });
  }

  for (const viewport of ['desktop', 'phone'] as const) {
    step(`${viewport}: the payment QR downloads as a PNG of the account; Share falls back to a download`, async () => {
      const { page } = await session(viewport, vikram.token);
      await page.goto('/dashboard');
      await page.getByRole('link', { name: 'Download or share' }).click();
      await page.waitForURL('**/receive');
      await page.getByRole('img', { name: 'Payment QR code of Vikram Nair' }).waitFor();
      await screenshot(page, SCREENSHOT_DIR, 'receive', viewport);
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download PNG' }).click();
      await downloadedQr(await download, vikram);
      await toast(page, 'QR code downloaded');

      // No share sheet in this browser (headless Linux has none): Share downloads the PNG instead.
      expect(await page.evaluate(() => typeof navigator.share)).toBe('undefined');
      const fallback = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Share' }).click();
      await downloadedQr(await fallback, vikram);
      await toast(page, 'Sharing is not available here: the QR code was downloaded instead');
      await closeSession(page);
    });
  }

  step('where the browser can share files, Share hands the PNG itself to the share sheet', async () => {
    const { page } = await session('phone', vikram.token);
    // A stand-in share sheet that records what it was given (the real one needs a person).
    await page.addInitScript(() => {
      const shared: { name: string; type: string; size: number; title: string }[] = [];
      Object.assign(window, { sharedFiles: shared });
      Object.defineProperty(navigator, 'canShare', {
        value: (data: { files?: File[] }) => Boolean(data.files?.every((file) => file.type === 'image/png')),
      });
      Object.defineProperty(navigator, 'share', {
        value: async (data: { files?: File[]; title?: string }) => {
          for (const file of data.files ?? [])
            shared.push({ name: file.name, type: file.type, size: file.size, title: data.title ?? '' });
        },
      });
    });
    await page.goto('/receive');
    await page.getByRole('img', { name: 'Payment QR code of Vikram Nair' }).waitFor();
    await page.getByRole('button', { name: 'Share' }).click();
    await toast(page, 'QR code shared');
    const shared = await page.evaluate(() => (window as unknown as { sharedFiles: unknown[] }).sharedFiles);
    expect(shared).toEqual([
      {
        name: `rupee-wallet-qr-${vikram.id}.png`,
        type: 'image/png',
        size: expect.any(Number),
        title: 'Pay Vikram Nair',
      },
    ]);
    await closeSession(page);
  });

  for (const viewport of ['desktop', 'phone'] as const) {
    step(`${viewport}: an unknown address shows the not-found page with a way home`, async () => {
      const { page } = await session(viewport);
      await page.goto('/no-such-page');
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      await page.getByText('/no-such-page', { exact: true }).waitFor();
      expect(page.url()).toBe(`${base}/no-such-page`);
      await screenshot(page, SCREENSHOT_DIR, 'not-found', viewport);
      await page.getByRole('link', { name: 'Go to home' }).click();
      await page.waitForURL(`${base}/`);
      await page.getByRole('heading', { name: 'Your Digital Wallet Reimagined' }).waitFor();
      await closeSession(page);
    });
  }

  step('a page whose code cannot load (an old tab after a deploy) shows the error page with Reload', async () => {
    for (const viewport of ['desktop', 'phone'] as const) {
      const { page } = await session(viewport, neha.token);
      await page.goto('/dashboard');
      await page.getByRole('heading', { name: 'Hi Neha, Welcome' }).waitFor();
      // The Requests page's chunk is gone, as after a deploy replaced the build.
      await page.route('**/assets/RequestsRoute-*.js', (route) => route.abort());
      if (viewport === 'phone') await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Requests' }).click();
      await page.getByRole('heading', { name: 'A new version of the wallet is available' }).waitFor();
      await page.getByRole('link', { name: 'Go to home' }).waitFor();
      await screenshot(page, SCREENSHOT_DIR, 'error-page', viewport);
      await page.unroute('**/assets/RequestsRoute-*.js');
      await page.getByRole('button', { name: 'Reload' }).click();
      await page.getByRole('tab', { name: /^Received/ }).waitFor();
      await closeSession(page);
    }
  });

  step('phone: the menu is a modal dialog: focus moves in and stays, Escape hands it back to "Open menu"', async () => {
    const { context, page } = await openPage(browser, base, 'phone', neha.token, { bypassCSP: true });
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Hi Neha, Welcome' }).waitFor();
    // The charts first: recharts' tooltip is a live region in main, and radix's aria-hidden spares
    // live regions and their ancestors - the case that left main exposed when they won the race.
    await page.getByTestId('balance-chart').waitFor();
    expect(await exposedInAccessibilityTree(page, 'main')).toBe(1);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await menu.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Transactions' }).waitFor();
    await menu.getByRole('group', { name: 'Theme' }).getByRole('button', { name: 'Dark' }).waitFor();
    expect(await menu.getAttribute('aria-modal')).toBe('true');
    // The page behind is hidden from assistive technology while the menu is open: asked of the
    // browser's accessibility tree, which honours inert (getByRole reads only aria-hidden).
    expect(await exposedInAccessibilityTree(page, 'main')).toBe(0);
    expect(await exposedInAccessibilityTree(page, 'status')).toBe(0);
    const focusedInMenu = () =>
      page.evaluate(() => {
        const focused = document.activeElement;
        return focused?.closest('[role="dialog"]') ? (focused.getAttribute('aria-label') ?? focused.textContent) : null;
      });
    await expect.poll(focusedInMenu, UI_POLL).not.toBeNull();
    // More presses than the menu has stops, both ways: focus cycles through every stop and never leaves.
    const stops = await menu.locator('a[href], button, select').count();
    for (const key of ['Tab', 'Shift+Tab']) {
      const visited = new Set<string | null>();
      for (let press = 0; press < stops + 3; press += 1) {
        await page.keyboard.press(key);
        const focused = await focusedInMenu();
        expect(focused, `${key} #${press + 1} left the menu`).not.toBeNull();
        visited.add(focused);
      }
      expect(visited.size).toBe(stops);
    }
    // Focus sent behind the menu by other means is pulled back in.
    await page.locator('.skip-link').focus();
    await expect.poll(focusedInMenu, UI_POLL).not.toBeNull();
    await screenshot(page, SCREENSHOT_DIR, 'menu-dialog', 'phone', false);
    const violations = await seriousViolations(page);
    expect(violations.map((violation) => `${violation.id}: ${violation.help} ${violation.targets.join(' ')}`)).toEqual(
      [],
    );
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')), UI_POLL)
      .toBe('Open menu');
    expect(await exposedInAccessibilityTree(page, 'main')).toBe(1);
    await context.close();
  });

  const AXE_SCREENS: { path: string; ready: string; token: () => string | undefined }[] = [
    { path: '/', ready: 'Your Digital Wallet Reimagined', token: () => undefined },
    { path: '/login', ready: 'Welcome back', token: () => undefined },
    { path: '/register', ready: 'Create your wallet', token: () => undefined },
    { path: '/no-such-page', ready: 'Page not found', token: () => undefined },
    { path: '/dashboard', ready: 'Hi Neha, Welcome', token: () => neha.token },
    { path: '/transactions', ready: 'TRANSACTIONS', token: () => neha.token },
    { path: '/requests', ready: 'REQUESTS', token: () => neha.token },
    { path: '/receive', ready: 'RECEIVE MONEY', token: () => neha.token },
    { path: '/users', ready: 'USERS', token: () => adminToken },
    { path: '/admin/audit', ready: 'ACCOUNT AUDIT', token: () => adminToken },
    { path: '/admin/ledger', ready: 'LEDGER EXPLORER', token: () => adminToken },
    { path: '/admin/operations', ready: 'OPERATIONS', token: () => adminToken },
    { path: '/docs', ready: 'How the wallet works', token: () => undefined },
    { path: '/architecture', ready: 'Architecture overview', token: () => undefined },
    { path: '/user-not-verified', ready: 'Verification Required', token: () => undefined },
  ];
  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      step(
        `axe-core, ${viewport}, ${colorScheme} theme: no serious or critical violations on any main screen`,
        async () => {
          const found: string[] = [];
          const report = (where: string, violations: Awaited<ReturnType<typeof seriousViolations>>) => {
            for (const violation of violations)
              found.push(
                `${where}: ${violation.id} (${violation.impact}) ${violation.help}\n    ${violation.targets.join('\n    ')}`,
              );
          };
          for (const screen of AXE_SCREENS) {
            const { context, page } = await openPage(browser, base, viewport, screen.token(), {
              colorScheme,
              bypassCSP: true,
            });
            await page.goto(screen.path);
            await page.getByRole('heading', { name: screen.ready }).first().waitFor();
            expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(colorScheme);
            if (screen.path === '/') {
              // The statistics band's real figures, counted up.
              await page.getByRole('region', { name: 'This wallet so far' }).getByText('Verified customers').waitFor();
            }
            if (screen.path === '/users') {
              // The review buttons: Settle and Fail on the pending deposit, Activate on the new customer.
              await page.getByRole('button', { name: 'Settle ₹750 from Vikram Nair' }).waitFor();
              // On a phone a user's button is inside their card, opened here.
              if (viewport === 'phone') await page.locator('.list-card-toggle', { hasText: 'Isha Menon' }).click();
              await page.getByRole('button', { name: 'Activate Isha Menon' }).waitFor();
            }
            report(screen.path, await seriousViolations(page));
            if (screen.path === '/users') {
              await page.getByRole('button', { name: 'Fail ₹750 from Vikram Nair' }).click();
              await page.getByRole('dialog', { name: 'Mark deposit as failed' }).waitFor();
              report('fail deposit dialog', await seriousViolations(page));
            }
            if (screen.path === '/transactions') {
              // The confirmation step, inside its dialog.
              await page.getByRole('button', { name: 'SEND', exact: true }).click();
              const send = page.getByRole('dialog', { name: 'Transfer Funds' });
              await verifyReceiver(send, 'Receiver account number', vikram.id);
              await send.getByLabel('Amount (₹)').fill('10');
              await send.getByLabel('Reference', { exact: true }).fill('axe check');
              await send.getByRole('button', { name: 'Continue', exact: true }).click();
              await send.getByTestId('confirm-pay-title').waitFor();
              report('transfer confirmation', await seriousViolations(page));
            }
            await context.close();
          }
          expect(found.join('\n')).toBe('');
        },
        240_000,
      );
    }
  }

  step('no page threw an uncaught error', async () => {
    expect(pageErrors).toEqual([]);
  });
});
