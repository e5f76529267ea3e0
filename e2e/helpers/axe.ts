/**
 * Accessibility checks in the real browser: axe-core (node_modules/axe-core/axe.min.js)
 * injected into the page as a script tag, run over the whole document, and its violations
 * of impact 'serious' or 'critical' returned with the first few offending elements, so an
 * assertion failure says what to fix and where. And what Chromium's own accessibility tree
 * (the one screen readers are given, through the DevTools protocol) exposes of a role - where
 * Playwright's getByRole reads aria-hidden but not `inert`.
 */
import type { Page } from 'playwright-core';
import type { AxeResults } from 'axe-core';

export const AXE_SCRIPT = 'node_modules/axe-core/axe.min.js';

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Serious and critical violations on the page as it is now (the page needs bypassCSP). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_SCRIPT });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<AxeResults> } }).axe;
    const results = await axe.run(document);
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? 'unknown',
      help: violation.help,
      targets: violation.nodes.slice(0, 4).map((node) => `${node.target.join(' ')} ${node.failureSummary ?? ''}`),
    }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

/** How many elements of `role` Chromium exposes to assistive technology (not ignored, e.g. for an inert or aria-hidden ancestor). */
export async function exposedInAccessibilityTree(page: Page, role: string): Promise<number> {
  const session = await page.context().newCDPSession(page);
  try {
    const { root } = await session.send('DOM.getDocument', { depth: 0 });
    const { nodes } = await session.send('Accessibility.queryAXTree', { nodeId: root.nodeId, role });
    return nodes.filter((node) => !node.ignored).length;
  } finally {
    await session.detach();
  }
}
