/**
 * Statements and charts in a real browser against the real server (started by
 * e2e/global-setup.ts). Two customers of their own are registered, activated (by the second
 * admin, so the admin settles their deposits alone) and funded
 * through the API: Nila deposits by UPI (settled by the admin) and pays Arjun. Then:
 * - Nila's dashboard draws her balance over time and money in / out by month (the charts'
 *   svg has the data points), from a lazily loaded chunk that the dashboard's first chunk
 *   does not contain (checked in the built files);
 * - her Transactions page filters by dates (a past range is empty, today's has both) and
 *   downloads the statement for the range as CSV and PDF (contents checked), and on a phone
 *   in Hindi, the PDF worded in Hindi;
 * - the admin's Operations page charts the trial balance and each projection's lag over time.
 * Desktop and phone screenshots of each screen go to test-output/screenshots/.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { addDays, kolkataToday } from '../contracts/statements.ts';
import { pdfText } from '../test/pdf-text.ts';
import { activeCustomer, apiClient, expectNoSidewaysScroll, type Customer } from './helpers/api.ts';
import { launchBrowser, screenshot, type ViewportName } from './helpers/browser.ts';
import { OUTPUT_DIR, SCREENSHOT_DIR } from './helpers/constants.ts';
import { serialRun } from './helpers/serial-run.ts';
import { expectText, historyCounter, signIn } from './helpers/wallet.ts';

const base = inject('baseUrl');
const ADMIN = { email: inject('adminEmail'), password: inject('adminPassword') };
/** Activates the customers, so that ADMIN settles their deposits alone. */
const REVIEWER = { email: inject('reviewerEmail'), password: inject('reviewerPassword') };
const PASSWORD = 'statement-pass-2026';
const PIN = '6281';
const TODAY = kolkataToday();

let browser: Browser;
let adminToken = '';
let reviewerToken = '';
let nila: Customer;
let arjun: Customer;

const api = apiClient(base);

async function customer(firstName: string, lastName: string, email: string): Promise<Customer> {
  return activeCustomer(api, reviewerToken, {
    firstName,
    lastName,
    email,
    password: PASSWORD,
    pin: PIN,
    address: '12 MG Road, Bengaluru 560001',
  });
}

const { pageErrors, session, step } = serialRun({
  browser: () => browser,
  base,
  failurePrefix: 'failure-statements-',
});

/** The x,y points of an svg path's M/L commands (recharts draws linear and step curves with them). */
function pathPoints(d: string | null): [number, number][] {
  return [...(d ?? '').matchAll(/[ML]\s*(-?[\d.]+)[ ,](-?[\d.]+)/g)].map((match) => [
    Number(match[1]),
    Number(match[2]),
  ]);
}

beforeAll(async () => {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  browser = await launchBrowser();
  adminToken = await api<string>('POST', '/api/users/login', undefined, ADMIN);
  reviewerToken = await api<string>('POST', '/api/users/login', undefined, REVIEWER);
  nila = await customer('Nila', 'Menon', 'nila.menon@example.in');
  arjun = await customer('Arjun', 'Rao', 'arjun.rao@example.in');
  const deposit = await api<{ transactionId: string }>('POST', '/api/transactions/deposit-funds', nila.token, {
    amount: 5000,
    reference: 'salary top up',
    transactionPin: PIN,
    paymentMethod: 'upi',
    upiDetails: { upiId: 'nila@okbank' },
  });
  await api('POST', '/api/transactions/settle-deposit', adminToken, { depositId: deposit.transactionId });
  // Command replies wait for every projection (read after reply), so the statement has both.
  await api('POST', '/api/transactions/transfer-funds', nila.token, {
    receiver: arjun.id,
    amount: 1250.5,
    reference: 'rent share',
    transactionPin: PIN,
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('statements and charts in a real browser', () => {
  step("the dashboard's first chunk leaves recharts to a chunk of its own", async () => {
    const assets = join('web', 'dist', 'assets');
    const files = readdirSync(assets);
    const dashboard = files.filter((file) => /^DashboardRoute-.*\.js$/.test(file));
    const charts = files.filter((file) => /^DashboardCharts-.*\.js$/.test(file));
    expect(dashboard).toHaveLength(1);
    expect(charts).toHaveLength(1);
    expect(readFileSync(join(assets, dashboard[0] ?? ''), 'utf8')).not.toContain('recharts-');
    const chartChunks = [charts[0] ?? '', ...files.filter((file) => file.endsWith('.js'))].filter((file) =>
      readFileSync(join(assets, file), 'utf8').includes('recharts-cartesian-axis'),
    );
    expect(chartChunks.length).toBeGreaterThan(0);
  });

  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    step(`the dashboard draws the balance over time and money in / out by month (${viewport})`, async () => {
      const { page } = await session(viewport);
      const chunks: string[] = [];
      page.on('request', (request) => chunks.push(request.url()));
      await signIn(page, nila.email, PASSWORD);
      const balance = page.getByTestId('balance-chart');
      await balance.locator('.recharts-area-curve').waitFor();
      expect(chunks.some((url) => /\/assets\/DashboardCharts-.*\.js$/.test(url))).toBe(true);
      expect(await balance.locator('figcaption').textContent()).toMatch(/₹3,749\.50 on /);
      // Every day of the six months is a point; the last (today) is higher than the first (0).
      const points = pathPoints(await balance.locator('.recharts-area-curve').getAttribute('d'));
      expect(points.length).toBeGreaterThan(100);
      const first = points[0] ?? [0, 0];
      const last = points.at(-1) ?? [0, 0];
      expect(last[1]).toBeLessThan(first[1]);
      const bars = page.getByTestId('money-in-out-chart').locator('.recharts-bar-rectangle path');
      await expect.poll(() => bars.count(), { timeout: 15_000, interval: 150 }).toBe(2);
      expect(await page.getByTestId('money-in-out-chart').locator('figcaption').textContent()).toBe(
        'Money in ₹5,000 and money out ₹1,250.50, by month',
      );
      await expectNoSidewaysScroll(page);
      await page.getByTestId('balance-chart').scrollIntoViewIfNeeded();
      await screenshot(page, SCREENSHOT_DIR, 'dashboard-charts', viewport);
    });
  }

  step('Transactions: the date range filters the list and downloads the statement as CSV and PDF', async () => {
    const { page } = await session('desktop');
    await signIn(page, nila.email, PASSWORD);
    await page.getByRole('link', { name: 'Transactions' }).first().click();
    await page.waitForURL('**/transactions');
    await expectText(historyCounter(page), '2 of 2 transactions');
    const yesterday = addDays(TODAY, -1);
    await page.getByLabel('From').fill(addDays(TODAY, -30));
    await page.getByLabel('To').fill(yesterday);
    await page.getByText('No transactions found').waitFor();
    await page.getByLabel('To').fill(TODAY);
    await expectText(historyCounter(page), '2 of 2 transactions');
    await page.getByText(`Download statement (${addDays(TODAY, -30)} to ${TODAY}):`).waitFor();

    const csvDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'CSV' }).click();
    const csvFile = await csvDownload;
    expect(csvFile.suggestedFilename()).toBe(`statement-${addDays(TODAY, -30)}-to-${TODAY}.csv`);
    const csv = readFileSync((await csvFile.path()) ?? '', 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(csv).toHaveLength(3);
    expect(csv[0]).toBe('Date (IST),Description,Reference / note,Transaction ID,Debit (₹),Credit (₹),Balance (₹)');
    expect(csv[1]).toMatch(
      /^"\d{1,2} \w{3,4} \d{4}, \d{1,2}:\d{2} [ap]m",Added by UPI,salary top up,[^,]+,,5000\.00,5000\.00$/,
    );
    expect(csv[2]).toMatch(new RegExp(`^"[^"]+",Paid to ${arjun.name},rent share,[^,]+,1250\\.50,,3749\\.50$`));

    const pdfDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'PDF' }).click();
    const pdfFile = await pdfDownload;
    expect(pdfFile.suggestedFilename()).toBe(`statement-${addDays(TODAY, -30)}-to-${TODAY}.pdf`);
    const pdf = readFileSync((await pdfFile.path()) ?? '');
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf);
    expect(text).toContain(`Account holder: ${nila.name}`);
    expect(text).toContain('Money in: ₹5,000.00');
    expect(text).toContain('Money out: ₹1,250.50');
    expect(text).toContain('Closing balance: ₹3,749.50');
    expect(text).toContain(`Paid to ${arjun.name}`);
    expect(text).toContain('Ref: rent share');
    expect(text).toContain('Ref: salary top up');
    // Times in India Standard Time, the same moment the CSV gives (the column may wrap the time).
    expect(text).toContain('Date (IST)');
    expect(text).toMatch(/Generated: .+ IST/);
    const [csvDay, csvTime] = (csv[1]?.split('"')[1] ?? '').split(', ');
    expect(text).toContain(csvDay);
    expect(text).toContain(csvTime);
    await screenshot(page, SCREENSHOT_DIR, 'transactions-date-range', 'desktop');

    // A backwards range is refused before any request.
    await page.getByLabel('From').fill(TODAY);
    await page.getByLabel('To').fill(yesterday);
    await page.getByRole('alert').filter({ hasText: 'The start date must not be after the end date' }).waitFor();
    expect(await page.getByRole('button', { name: 'PDF' }).isDisabled()).toBe(true);
  });

  step('Transactions date range on a phone, and the statement PDF in Hindi for a reader of the Hindi app', async () => {
    const { page } = await session('phone');
    await signIn(page, nila.email, PASSWORD);
    await page.goto('/transactions');
    await page.getByLabel('From').fill(addDays(TODAY, -7));
    await page.getByLabel('To').fill(TODAY);
    await expectText(historyCounter(page), '2 of 2 transactions');
    await expectNoSidewaysScroll(page);
    await screenshot(page, SCREENSHOT_DIR, 'transactions-date-range', 'phone');

    await page.evaluate(() => window.localStorage.setItem('language', 'hi'));
    try {
      await page.reload();
      await page.getByLabel('से').fill(addDays(TODAY, -7));
      await page.getByLabel('तक').fill(TODAY);
      await page.getByText(`स्टेटमेंट डाउनलोड करें (${addDays(TODAY, -7)} से ${TODAY}):`).waitFor();
      const pdfDownload = page.waitForEvent('download');
      await page.getByRole('button', { name: 'PDF' }).click();
      const pdf = readFileSync((await (await pdfDownload).path()) ?? '');
      // A line is joined from its runs of each script (test/pdf-text.ts); the words checked
      // avoid the signs a PDF reads back out of order (ि, a reph: api/statements.test.ts).
      const text = pdfText(pdf).replaceAll('\n', '');
      expect(text).toContain('आए पैसे: ₹5,000.00');
      expect(text).toContain('गए पैसे: ₹1,250.50');
      expect(text).toContain(`${arjun.name} को भुगतान`);
      expect(text).toContain('UPI से जोड़े गए');
      expect(text).toContain(': rent share');
      expect(text).not.toContain('Money in');
    } finally {
      await page.evaluate(() => window.localStorage.setItem('language', 'en'));
    }
  });

  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    step(
      `Operations charts the trial balance and projection lag over time (${viewport})`,
      async () => {
        const { page } = await session(viewport);
        await signIn(page, ADMIN.email, ADMIN.password);
        await page.goto('/admin/operations');
        const lag = page.getByTestId('projection-lag-chart');
        await lag.waitFor();
        // Sampled every 5 s: wait for the second sample, then every projection has a line through both.
        await expect
          .poll(() => lag.locator('figcaption').textContent(), { timeout: 20_000, interval: 500 })
          .toMatch(/\((?:[2-9]|\d{2,}) samples/);
        const lagLines = lag.locator('.recharts-line-curve');
        expect(await lagLines.count()).toBe(4);
        for (const line of await lagLines.all())
          expect(pathPoints(await line.getAttribute('d')).length).toBeGreaterThanOrEqual(2);
        for (const name of ['accounts', 'history', 'money_requests', 'statement_days'])
          await lag.locator('.recharts-legend-item-text', { hasText: name }).waitFor();
        const trial = page.getByTestId('trial-balance-chart');
        // The trial balance is sampled every 30 s: at least its first sample, a dot per series.
        await expect
          .poll(() => trial.locator('.recharts-line-dot').count(), { timeout: 15_000, interval: 150 })
          .toBeGreaterThanOrEqual(3);
        for (const name of ['funding', 'total', 'wallet'])
          await trial.locator('.recharts-legend-item-text', { hasText: name }).waitFor();
        await expectNoSidewaysScroll(page);
        await lag.scrollIntoViewIfNeeded();
        await screenshot(page, SCREENSHOT_DIR, 'admin-operations-charts', viewport);
      },
      90_000,
    );
  }

  step('no page raised an error', async () => {
    expect(pageErrors).toEqual([]);
  });
});
