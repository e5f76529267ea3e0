/**
 * The landing page in Hindi: hero, calls to action, feature cards, the statistics band's
 * labels and the footer's links (their addresses unchanged); figures keep Latin digits.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setLanguage } from '../../../i18n/i18n.ts';
import { fakeApi, renderWithApp } from '../../../test/harness.tsx';
import LandingPage from './LandingPage.tsx';

describe('the landing page in Hindi', () => {
  it('shows the hero, features, statistics and footer in Hindi', async () => {
    fakeApi({
      '/api/stats': () => ({
        body: {
          success: true,
          message: 'Statistics fetched',
          data: { accounts: 1200, payments: 0, moneyMoved: 0, moneyMovedPaise: '0', asOf: '2026-11-27T10:00:00Z' },
        },
      }),
    });
    act(() => setLanguage('hi'));
    renderWithApp(<LandingPage />);

    expect(screen.getByRole('heading', { level: 1, name: 'आपका डिजिटल वॉलेट नए अंदाज़ में' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'साइन अप करें' }).getAttribute('href')).toBe('/register');
    expect(screen.getByRole('heading', { name: 'UPI QR भुगतान' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'मुफ़्त खाता बनाएँ' })).toBeTruthy();

    const band = screen.getByRole('region', { name: 'अब तक यह वॉलेट' });
    expect(within(band).getByText('सत्यापित ग्राहक')).toBeTruthy();
    await waitFor(() => expect(within(band).getAllByText('1,200')).toHaveLength(2));

    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: 'वॉलेट कैसे काम करता है' }).getAttribute('href')).toBe('/docs');
    expect(within(footer).getByRole('navigation', { name: 'सहायता' })).toBeTruthy();
    expect(within(footer).getAllByRole('link', { name: 'गोपनीयता नीति' })[0]?.getAttribute('href')).toBe('/privacy');
    expect(within(footer).getByText(/सर्वाधिकार सुरक्षित/)).toBeTruthy();
    expect(within(footer).getByText('वॉलेट टीम द्वारा निर्मित')).toBeTruthy();
  });
});
