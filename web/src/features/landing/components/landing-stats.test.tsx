/**
 * The landing page's statistics band shows what GET /api/stats answers, in en-IN grouping,
 * 0 on a new instance, and no number at all when the figures cannot be read; the footer's
 * links reach the app's own docs and architecture pages.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, renderWithApp } from '../../../test/harness.tsx';
import LandingPage from './LandingPage.tsx';

function stats(accounts: number, payments: number, moneyMoved: number) {
  return {
    body: {
      success: true,
      message: 'Statistics fetched',
      data: { accounts, payments, moneyMoved, moneyMovedPaise: String(moneyMoved * 100), asOf: '2026-11-27T10:00:00Z' },
    },
  };
}

async function band(): Promise<HTMLElement> {
  return screen.findByRole('region', { name: 'This wallet so far' });
}

describe('the landing statistics band', () => {
  it("shows this instance's figures with Indian grouping", async () => {
    fakeApi({ '/api/stats': () => stats(123456, 1234567, 98765432.5) });
    renderWithApp(<LandingPage />);
    const region = await band();
    // Each figure twice: the counting text (hidden from screen readers) and the final figure they read.
    await waitFor(() => expect(within(region).getAllByText('1,23,456')).toHaveLength(2));
    expect(within(region).getAllByText('12,34,567')).toHaveLength(2);
    expect(within(region).getAllByText('₹9,87,65,433')).toHaveLength(2);
    expect(within(region).getByText('Verified customers')).toBeTruthy();
    expect(within(region).getByText('Payments made')).toBeTruthy();
    expect(within(region).getByText('Money moved')).toBeTruthy();
  });

  it('shows 0 on a new instance, honestly', async () => {
    fakeApi({ '/api/stats': () => stats(1, 0, 0) });
    renderWithApp(<LandingPage />);
    const region = await band();
    await waitFor(() => expect(within(region).getAllByText('₹0')).toHaveLength(2));
    expect(within(region).getAllByText('0')).toHaveLength(2);
    expect(within(region).getAllByText('1')).toHaveLength(2);
  });

  it('invents nothing when the figures cannot be read', async () => {
    fakeApi({ '/api/stats': () => ({ status: 500, body: { success: false, message: 'Internal server error' } }) });
    renderWithApp(<LandingPage />);
    const region = await band();
    // The query retries once before it gives up.
    expect(await within(region).findAllByText('Unavailable', {}, { timeout: 10_000 })).toHaveLength(3);
    expect(within(region).queryByText(/\d/)).toBeNull();
  });

  it("links the footer to the app's pages and to nothing else: no placeholder, no phone number", async () => {
    fakeApi({ '/api/stats': () => stats(1, 0, 0) });
    const { container } = renderWithApp(<LandingPage />);
    const footer = await screen.findByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: 'Architecture' }).getAttribute('href')).toBe('/architecture');
    expect(within(footer).getByRole('link', { name: 'How the wallet works' }).getAttribute('href')).toBe('/docs');
    expect(within(footer).getByRole('link', { name: 'Security' }).getAttribute('href')).toBe('/docs#security');
    expect(
      within(footer)
        .getAllByRole('link', { name: 'Privacy Policy' })
        .map((link) => link.getAttribute('href')),
    ).toEqual(['/privacy', '/privacy']);
    expect(within(footer).getAllByRole('link', { name: 'Terms of Service' })[0]?.getAttribute('href')).toBe('/terms');
    // Issue 41: 13 footer links went to '#', and a placeholder phone number sat above them.
    const hrefs = [...container.querySelectorAll('a')].map((link) => link.getAttribute('href'));
    expect(hrefs.filter((href) => href === '#' || href === '' || href === null)).toEqual([]);
    expect(hrefs.filter((href) => href?.startsWith('tel:'))).toEqual([]);
    expect(container.textContent).not.toMatch(/PCI DSS|ISO 27001|24\/7/);
  });
});
