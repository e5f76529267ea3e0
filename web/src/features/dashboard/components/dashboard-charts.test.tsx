/**
 * The dashboard's charts: asked for the last six months of the caller's statement, drawn
 * (lazily loaded) as an area of daily balances and bars of money in / out per month, with
 * captions that say the figures; an error from the server is shown, not a blank card.
 */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { StatementCharts } from '../../../../../contracts/statements.ts';
import { fakeApi, renderWithApp, USER } from '../../../test/harness.tsx';
import { chartPeriod } from '../api/get-statement-charts.ts';
import { DashboardPage } from './DashboardPage.tsx';

const CHARTS: StatementCharts = {
  from: '2026-06-01',
  to: '2026-11-03',
  timeZone: 'Asia/Kolkata',
  openingBalance: 0,
  closingBalance: 8500,
  moneyIn: 10000,
  moneyOut: 1500,
  daily: [
    { date: '2026-11-01', balance: 0 },
    { date: '2026-11-02', balance: 10000 },
    { date: '2026-11-03', balance: 8500 },
  ],
  monthly: [
    { month: '2026-10', moneyIn: 0, moneyOut: 0 },
    { month: '2026-11', moneyIn: 10000, moneyOut: 1500 },
  ],
};

const ok = (data: unknown) => () => ({ body: { success: true, message: 'ok', data } });

describe('dashboard charts', () => {
  it("draws the balance over time and money in / out by month from the caller's statement", async () => {
    const calls = fakeApi({
      '/api/transactions/statement/charts': ok(CHARTS),
      '/api/users/generate-qr': ok('data:image/png;base64,AA=='),
      '/api/transactions/get-all-transactions-by-user': ok({ items: [], total: 0, page: 1, pageSize: 3 }),
    });
    const { container } = renderWithApp(<DashboardPage user={USER} />);
    expect(
      await screen.findByText(/Balance over time: ₹0 on 1 Jun, ₹8,500 on 3 Nov/, {}, { timeout: 15_000 }),
    ).toBeTruthy();
    expect(screen.getByText(/Money in ₹10,000 and money out ₹1,500, by month/)).toBeTruthy();
    const request = calls.find((call) => call.path === '/api/transactions/statement/charts');
    expect(request?.query).toEqual(chartPeriod());
    expect(request?.query.from).toMatch(/^\d{4}-\d{2}-01$/);
    await waitFor(() => {
      const area = container.querySelector('[data-testid="balance-chart"] .recharts-area-curve');
      expect(area?.getAttribute('d')).toMatch(/^M[\d.]+,[\d.]+/);
    });
    // One bar per month and direction with a value: in and out in November.
    await waitFor(() =>
      expect(container.querySelectorAll('[data-testid="money-in-out-chart"] .recharts-bar-rectangle path').length).toBe(
        2,
      ),
    );
  }, 30_000);

  it("says so when the charts can't be loaded", async () => {
    fakeApi({
      '/api/transactions/statement/charts': () => ({
        status: 400,
        body: { success: false, message: 'A statement covers at most 366 days', code: 'validation_failed' },
      }),
      '/api/users/generate-qr': ok('data:image/png;base64,AA=='),
      '/api/transactions/get-all-transactions-by-user': ok({ items: [], total: 0, page: 1, pageSize: 3 }),
    });
    renderWithApp(<DashboardPage user={USER} />);
    expect(await screen.findByText('A statement covers at most 366 days', {}, { timeout: 15_000 })).toBeTruthy();
  });
});

describe('chart period', () => {
  it('covers six calendar months up to today', () => {
    expect(chartPeriod('2026-11-24')).toEqual({ from: '2026-06-01', to: '2026-11-24' });
    expect(chartPeriod('2026-03-31')).toEqual({ from: '2025-10-01', to: '2026-03-31' });
  });
});
