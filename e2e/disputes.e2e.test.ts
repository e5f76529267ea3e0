/**
 * A payment's own page and its dispute (issue 43 item 3), in a real browser against the real
 * server, at desktop width in English and on a phone in Hindi: a history row opens the payment
 * (by keyboard), its receipt downloads as a PDF whose text names both parties, the amount, the
 * note, the IST time, the id and the status, and the page prints the receipt alone; the payer
 * raises a dispute with a reason; the first admin upholds it from the disputes queue, which
 * files the reversal for a second admin (₹12,000.50 is above the approval threshold); the second
 * admin turns it down on the Operations page, the first upholds it again, and the second
 * approves it. The payer's page, open all along and never reloaded, shows each step as it
 * happens (the live stream): the refund waiting for approval, the dispute open again, waiting
 * again, then the refund and the resolved dispute. The axe scan of the payment page and the queue is clean in
 * the light and dark themes.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { pdfText } from '../test/pdf-text.ts';
import { activeCustomer, apiClient, expectNoSidewaysScroll, type Customer } from './helpers/api.ts';
import { seriousViolations } from './helpers/axe.ts';
import { launchBrowser, openPage, screenshot, type ViewportName } from './helpers/browser.ts';
import { OUTPUT_DIR, SCREENSHOT_DIR } from './helpers/constants.ts';
import { serialRun } from './helpers/serial-run.ts';
import { expectText, toast } from './helpers/wallet.ts';

const base = inject('baseUrl');
const ADMIN = { email: inject('adminEmail'), password: inject('adminPassword') };
/** Activates the customers, and approves the reversal ADMIN files. */
const REVIEWER = { email: inject('reviewerEmail'), password: inject('reviewerPassword') };
const PIN = '4343';
const PAID = 12_000.5;
const NOTE = 'laptop advance';
const REASON = 'The seller never delivered the laptop';

/** The words the steps look for, in each language (web/src/i18n/resources). */
const WORDS = {
  en: {
    title: 'Payment details',
    from: 'From',
    to: 'To',
    downloadPdf: 'Download receipt (PDF)',
    raise: 'Raise a dispute',
    reason: 'What went wrong?',
    submit: 'Submit dispute',
    open: 'Dispute open',
    awaiting: 'Refund awaiting approval',
    reversed: 'Refunded (payment reversed)',
    reversedTitle: 'Reversed',
  },
  hi: {
    title: 'भुगतान का विवरण',
    from: 'किससे',
    to: 'किसको',
    downloadPdf: 'रसीद डाउनलोड करें (PDF)',
    raise: 'विवाद दर्ज करें',
    reason: 'क्या गलत हुआ?',
    submit: 'विवाद भेजें',
    open: 'विवाद खुला है',
    awaiting: 'रिफ़ंड मंज़ूरी की प्रतीक्षा में',
    reversed: 'रिफ़ंड हो गया (भुगतान रिवर्स हुआ)',
    reversedTitle: 'रिवर्स किया गया',
  },
} as const;
type Language = keyof typeof WORDS;

/**
 * The receipt PDF's words (user-statements/receipt-pdf.ts). A label that begins with a vowel
 * sign drawn before its consonant (Hindi's किससे, किसको, राशि) reads back in drawn order, and
 * the id's label (लेन-देन आईडी (संदर्भ)) ends in glyphs a PDF maps to no text (a reph, a
 * contextual vowel sign), so only what follows them is matched.
 */
const PDF_WORDS = {
  en: {
    title: 'Payment receipt',
    amount: 'Amount: ',
    from: 'From: ',
    to: 'To: ',
    note: 'Note',
    time: 'Date and time',
    transactionId: 'Transaction ID',
    status: 'Status: Successful',
  },
  hi: {
    title: 'भुगतान की रसीद',
    amount: ': ',
    from: ': ',
    to: ': ',
    note: 'नोट',
    time: 'तारीख और समय',
    transactionId: ')',
    status: 'सफल',
  },
} as const satisfies Record<Language, Record<string, string>>;

interface Run {
  viewport: ViewportName;
  language: Language;
  payer?: Customer;
  payee?: Customer;
  transferId?: string;
  /** The payer's payment page, kept open from the dispute to the refund (never reloaded). */
  page?: Page;
  navigations: number;
}

const RUNS: Run[] = [
  { viewport: 'desktop', language: 'en', navigations: 0 },
  { viewport: 'phone', language: 'hi', navigations: 0 },
];

let browser: Browser;
let adminToken = '';
let reviewerToken = '';
const api = apiClient(base);
const { session, step, pageErrors } = serialRun({ browser: () => browser, base, failurePrefix: 'failure-disputes-' });

function must<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('an earlier step did not set this up');
  return value;
}

/** A signed-in page in the run's language. */
async function pageFor(customer: Customer, run: Run): Promise<Page> {
  const { context, page } = await session(run.viewport, customer.token);
  await context.addInitScript((value) => window.localStorage.setItem('language', value), run.language);
  return page;
}

/** The customer's payment page, opened from its history row by keyboard (the row's link, then Enter). */
async function openPaymentFromHistory(page: Page, transferId: string): Promise<void> {
  await page.goto('/transactions');
  const link = page.locator(`a[href="/transactions/${transferId}"] >> visible=true`).first();
  await link.focus();
  await page.keyboard.press('Enter');
  await page.waitForURL(`**/transactions/${transferId}`);
}

function disputeStatus(page: Page): Locator {
  return page.getByTestId('dispute-status').locator('.badge');
}

beforeAll(async () => {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  browser = await launchBrowser();
  adminToken = await api<string>('POST', '/api/users/login', undefined, ADMIN);
  reviewerToken = await api<string>('POST', '/api/users/login', undefined, REVIEWER);
  for (const [index, run] of RUNS.entries()) {
    const person = (firstName: string, lastName: string, suffix: number) =>
      activeCustomer(api, reviewerToken, {
        firstName,
        lastName,
        email: `${firstName.toLowerCase()}.${lastName.toLowerCase()}.disputes@example.in`,
        password: 'disputes-pass-43',
        pin: PIN,
        address: '9 Park Street, Kolkata 700016',
        contactNo: `+91 90043 3${index}${suffix}00`,
      });
    run.payer = await person(index === 0 ? 'Meera' : 'Kabir', 'Sen', 1);
    run.payee = await person(index === 0 ? 'Rohan' : 'Tara', 'Das', 2);
    // A sandbox card deposit credits at once (no admin's settlement counts toward their totals).
    await api('POST', '/api/transactions/deposit-funds', run.payer.token, {
      amount: 20_000,
      reference: 'card top up',
      transactionPin: PIN,
      paymentMethod: 'card',
      paymentMethodId: 'pm_sandbox_4242',
    });
    const paid = await api<{ transactionId: string }>('POST', '/api/transactions/transfer-funds', run.payer.token, {
      receiver: run.payee.id,
      amount: PAID,
      reference: NOTE,
      transactionPin: PIN,
    });
    run.transferId = paid.transactionId;
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe("a payment's page, its receipt and its dispute", () => {
  for (const run of RUNS) {
    const words = WORDS[run.language];
    const tag = `${run.viewport}, ${run.language}`;

    step(`${tag}: a history row opens the payment; its receipt downloads as a PDF and prints alone`, async () => {
      const payer = must(run.payer);
      const payee = must(run.payee);
      const transferId = must(run.transferId);
      const page = await pageFor(payer, run);
      await openPaymentFromHistory(page, transferId);
      await page.getByRole('heading', { name: words.title, exact: true }).waitFor();
      const receipt = page.locator('.receipt');
      await expectText(receipt.getByTestId('receipt-amount'), '₹12,000.50');
      const rows = await receipt.locator('dl > div').evaluateAll((items) => items.map((item) => item.textContent));
      expect(rows).toContain(`${words.from}${payer.name}`);
      expect(rows).toContain(`${words.to}${payee.name}`);
      await expectNoSidewaysScroll(page);
      await screenshot(page, SCREENSHOT_DIR, `payment-${run.language}`, run.viewport);

      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: words.downloadPdf, exact: true }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe(`receipt-${transferId}.pdf`);
      const pdf = readFileSync((await file.path()) ?? '');
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      // In the language the app is read in; a line is joined from its runs of each script.
      const text = pdfText(pdf).replaceAll('\n', '');
      const pdfWords = PDF_WORDS[run.language];
      expect(text).toContain(pdfWords.title);
      expect(text).toContain(`${pdfWords.amount}₹12,000.50`);
      expect(text).toContain(`${pdfWords.from}${payer.name}`);
      expect(text).toContain(`${pdfWords.to}${payee.name}`);
      expect(text).toContain(`${pdfWords.note}: ${NOTE}`);
      // The statements' IST format (user-statements/statement-words.ts), 24-hour or with am/pm.
      expect(text).toMatch(new RegExp(`${pdfWords.time}: \\d{1,2} [A-Z][a-z]{2} \\d{4}, \\d{1,2}:\\d{2}( [ap]m)? IST`));
      expect(text).toContain(`${pdfWords.transactionId}: ${transferId}`);
      expect(text).toContain(pdfWords.status);

      // Printed, the page is the receipt alone: the actions and the navigation are not printed.
      // Waited for, not read once: in one CI run the navigation was read as visible right after
      // the switch to print while the button already read hidden.
      await page.emulateMedia({ media: 'print' });
      await page.getByRole('button', { name: words.downloadPdf, exact: true }).waitFor({ state: 'hidden' });
      await page.locator('nav').first().waitFor({ state: 'hidden' });
      expect(await receipt.isVisible()).toBe(true);
      await page.emulateMedia({ media: 'screen' });
    });

    step(`${tag}: the payer raises a dispute with a reason`, async () => {
      const page = await pageFor(must(run.payer), run);
      await openPaymentFromHistory(page, must(run.transferId));
      await page.getByRole('button', { name: words.raise, exact: true }).click();
      await page.getByLabel(words.reason, { exact: true }).fill(REASON);
      await page.getByRole('button', { name: words.submit, exact: true }).click();
      await expectText(disputeStatus(page), words.open);
      expect(await page.getByRole('button', { name: words.raise, exact: true }).count()).toBe(0);
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) run.navigations += 1;
      });
      run.page = page;
    });

    step(
      `${tag}: the first admin upholds it from the queue; the payer sees the refund await a second admin`,
      async () => {
        const { page } = await session('desktop', adminToken);
        await page.goto('/admin/disputes');
        const card = page.locator('li.dispute-card').filter({ hasText: must(run.transferId) });
        await card.getByText(REASON).waitFor();
        expect(await card.getByRole('link', { name: `${must(run.payer).name}'s history (payer)` }).count()).toBe(1);
        expect(await card.getByRole('link', { name: `${must(run.payee).name}'s history (payee)` }).count()).toBe(1);
        await screenshot(page, SCREENSHOT_DIR, `disputes-queue-${run.language}`, 'desktop');
        await card.getByLabel('Reason for your decision', { exact: true }).fill('Seller unreachable: refund the payer');
        await card.getByRole('button', { name: 'Reverse payment', exact: true }).click();
        await toast(page, "Awaiting a second admin's approval");
        // The payer's open page hears of the decision (DisputeUpheld on the live stream).
        await expectText(disputeStatus(must(run.page)), words.awaiting);
        await page.context().close();
      },
    );

    step(
      `${tag}: the second admin turns the refund down; the payer's open page shows the dispute open again, upheld again`,
      async () => {
        const reviewer = await session('desktop', reviewerToken);
        await reviewer.page.goto('/admin/operations');
        const reject = reviewer.page.locator(
          `button[aria-label="Reject reversal of transfer-${must(run.transferId)}"]:visible`,
        );
        await reject.click();
        await reject.waitFor({ state: 'detached' });
        await reviewer.page.context().close();
        // DisputeReopened on the live stream: open again, without a reload.
        await expectText(disputeStatus(must(run.page)), words.open);
        expect(run.navigations, 'the page was not reloaded').toBe(0);

        const { page } = await session('desktop', adminToken);
        await page.goto('/admin/disputes');
        const card = page.locator('li.dispute-card').filter({ hasText: must(run.transferId) });
        await card.getByLabel('Reason for your decision', { exact: true }).fill('Seller unreachable: refund the payer');
        await card.getByRole('button', { name: 'Reverse payment', exact: true }).click();
        await toast(page, "Awaiting a second admin's approval");
        await expectText(disputeStatus(must(run.page)), words.awaiting);
        await page.context().close();
      },
    );

    step(`${tag}: the second admin approves; the payer's open page shows the refund without a reload`, async () => {
      const { page } = await session('desktop', reviewerToken);
      await page.goto('/admin/operations');
      // The approvals are a table on desktop (and cards on phones): the visible one.
      const approve = page.locator(`button[aria-label="Approve reversal of transfer-${must(run.transferId)}"]:visible`);
      await approve.click();
      await approve.waitFor({ state: 'detached' });
      await page.context().close();

      const payerPage = must(run.page);
      await expectText(disputeStatus(payerPage), words.reversed);
      await payerPage.getByText(words.reversedTitle, { exact: true }).waitFor();
      expect(run.navigations, 'the page was not reloaded').toBe(0);
      await screenshot(payerPage, SCREENSHOT_DIR, `payment-refunded-${run.language}`, run.viewport);
    });
  }

  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      step(`axe-core, ${viewport}, ${colorScheme}: the payment page with its dispute, the disputes queue`, async () => {
        const found: string[] = [];
        const report = async (where: string, page: Page) => {
          for (const violation of await seriousViolations(page))
            found.push(`${where}: ${violation.id} ${violation.help} ${violation.targets.join(' ')}`);
        };
        const run = must(RUNS[0]);
        const customer = await openPage(browser, base, viewport, must(run.payer).token, {
          colorScheme,
          bypassCSP: true,
        });
        await customer.page.goto(`/transactions/${must(run.transferId)}`);
        await customer.page.getByTestId('dispute-status').waitFor();
        expect(await customer.page.evaluate(() => document.documentElement.dataset.theme)).toBe(colorScheme);
        await report('payment page', customer.page);
        await customer.context.close();
        const admin = await openPage(browser, base, viewport, adminToken, { colorScheme, bypassCSP: true });
        await admin.page.goto('/admin/disputes');
        await admin.page.getByLabel('Status', { exact: true }).selectOption('all');
        await admin.page.locator('li.dispute-card').first().waitFor();
        await report('disputes queue', admin.page);
        await admin.context.close();
        expect(found.join('\n')).toBe('');
      });
    }
  }

  step('no page threw an uncaught error', async () => {
    expect(pageErrors).toEqual([]);
  });
});
