/**
 * /docs#section on a direct visit (issue 43 item 4): the page is loaded lazily, after the
 * browser has looked for the section, so it scrolls there itself once drawn.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, renderWithApp } from '../../../test/harness.tsx';
import DocsPage from './DocsPage.tsx';

/** The ids of the elements asked to scroll into view (jsdom has no layout; the setup stubs the call). */
function recordScrolls(): string[] {
  const scrolled: string[] = [];
  vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(function (this: HTMLElement) {
    scrolled.push(this.id);
  });
  return scrolled;
}

describe('the user guide', () => {
  it('opened at /docs#deposit scrolls to the deposit section', async () => {
    fakeApi({});
    const scrolled = recordScrolls();
    renderWithApp(<DocsPage />, { path: '/docs#deposit' });
    await screen.findByRole('heading', { name: 'Adding money' });
    expect(scrolled).toEqual(['deposit']);
  });

  it('opened at /docs stays at the top', async () => {
    fakeApi({});
    const scrolled = recordScrolls();
    renderWithApp(<DocsPage />, { path: '/docs' });
    await screen.findByRole('heading', { name: 'Adding money' });
    expect(scrolled).toEqual([]);
  });
});
