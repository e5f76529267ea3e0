/**
 * A browser test file as one serial story: pages opened through `session` are tracked (for
 * failure screenshots and the no-page-error check), and `step` skips the rest once a step
 * has failed, saving a screenshot of every open page first. Anything the server's
 * Content-Security-Policy blocks counts as a page error: the browser only logs it, and the
 * page may still look fine while a feature (Stripe's frame, a QR image) silently is not there.
 */
import type { Browser } from 'playwright-core';
import { it } from 'vitest';
import { openPage, type PageSession, type ViewportName } from './browser.ts';
import { OUTPUT_DIR } from './constants.ts';

export interface SerialRun {
  sessions: PageSession[];
  /** Uncaught errors thrown by any tracked page, and Content-Security-Policy violations. */
  pageErrors: string[];
  session(viewport?: ViewportName, token?: string): Promise<PageSession>;
  step(name: string, body: () => Promise<void>, timeoutMs?: number): void;
}

export function serialRun(options: { browser: () => Browser; base: string; failurePrefix: string }): SerialRun {
  const sessions: PageSession[] = [];
  const pageErrors: string[] = [];
  let broken = false;
  return {
    sessions,
    pageErrors,
    async session(viewport = 'desktop', token) {
      const opened = await openPage(options.browser(), options.base, viewport, token);
      opened.page.on('pageerror', (error) => pageErrors.push(`${opened.page.url()}: ${error.message}`));
      opened.page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
          pageErrors.push(`${opened.page.url()}: ${message.text()}`);
      });
      sessions.push(opened);
      return opened;
    },
    step(name, body, timeoutMs = 60_000) {
      it(
        name,
        async (context) => {
          if (broken) context.skip('an earlier step failed');
          try {
            await body();
          } catch (error) {
            broken = true;
            const slug = name.replace(/[^a-z0-9]+/gi, '-').slice(0, 40);
            await Promise.all(
              sessions.map((opened, index) =>
                opened.page
                  .screenshot({ path: `${OUTPUT_DIR}/${options.failurePrefix}${slug}-${index}.png`, fullPage: true })
                  .catch(() => undefined),
              ),
            );
            throw error;
          }
        },
        timeoutMs,
      );
    },
  };
}
