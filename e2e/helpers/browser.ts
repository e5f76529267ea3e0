/**
 * Launches Debian's chromium through playwright-core for the browser tests (no bundled
 * browser download): headless, sandbox off (containers), and every background network
 * feature off so tests see only the traffic they cause. Playwright's launch() gives every
 * browser a fresh temporary profile (--user-data-dir) and removes it on close.
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

export type ViewportName = keyof typeof VIEWPORTS;

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS], headless: true });
}

export interface PageSession {
  context: BrowserContext;
  page: Page;
}

/**
 * A fresh context (own storage, so its own token) at a viewport; phones get touch and a
 * mobile UA. Reduced motion makes animations (the landing count-up) end at once, so
 * screenshots are deterministic. `token` signs the context in before any page loads.
 */
export interface PageOptions {
  /** Emulated prefers-color-scheme (the app's "system" theme follows it). */
  colorScheme?: 'light' | 'dark';
  /** Lets a test inject a script tag (axe-core) past the server's Content-Security-Policy. */
  bypassCSP?: boolean;
}

export async function openPage(
  browser: Browser,
  baseUrl: string,
  viewport: ViewportName = 'desktop',
  token?: string,
  options: PageOptions = {},
): Promise<PageSession> {
  const phone = viewport === 'phone';
  const context = await browser.newContext({
    ...options,
    baseURL: baseUrl,
    viewport: VIEWPORTS[viewport],
    deviceScaleFactor: phone ? 2 : 1,
    isMobile: phone,
    hasTouch: phone,
    locale: 'en-IN',
    timezoneId: 'Asia/Kolkata',
    reducedMotion: 'reduce',
  });
  if (token) await context.addInitScript((value) => window.localStorage.setItem('token', value), token);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.setDefaultNavigationTimeout(20_000);
  return { context, page };
}

/** Toasts are transient: a screenshot of a screen should not freeze the last action's message on it. */
export const HIDE_TOASTS = '.toast-viewport { visibility: hidden !important; }';

/** Screenshot named by screen and viewport; full page for pages, the viewport for open dialogs. */
export async function screenshot(
  page: Page,
  directory: string,
  screen: string,
  viewport: ViewportName,
  fullPage = true,
): Promise<string> {
  const path = `${directory}/${screen}-${viewport}.png`;
  await page.screenshot({ path, fullPage, animations: 'disabled', caret: 'hide', style: HIDE_TOASTS });
  return path;
}
