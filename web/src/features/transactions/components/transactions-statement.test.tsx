/**
 * The Transactions page's date range: it filters the list (the dates go to the history
 * request), chooses the statement downloaded as CSV or PDF (fetched with the session's token,
 * saved from a blob), and refuses a range that is backwards or longer than a statement covers.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import type { TransactionRecord } from '../../../../../contracts/transactions.ts';
import { storeToken } from '../../../lib/token.ts';
import { fakeApi, renderWithApp, USER, type RecordedCall } from '../../../test/harness.tsx';
import { statementPeriod } from './StatementRange.tsx';
import { TransactionsPage } from './TransactionsPage.tsx';

const MARCH: TransactionRecord = {
  _id: 'march-deposit',
  sender: USER._id,
  receiver: USER._id,
  amount: 10000,
  reference: 'top up',
  status: 'success',
  type: 'deposit',
  method: 'upi',
  counterpartyId: 'funding:upi',
  counterpartyName: 'UPI',
  createdAt: '2026-03-10T05:00:00.000Z',
};
const APRIL: TransactionRecord = { ...MARCH, _id: 'april-transfer', createdAt: '2026-04-01T05:00:00.000Z' };

/** The server's filter: rows whose day (ISO date is near enough here) is within from..to. */
function history(call: RecordedCall) {
  const from = typeof call.body.from === 'string' ? call.body.from : '0000';
  const to = typeof call.body.to === 'string' ? call.body.to : '9999';
  const items = [APRIL, MARCH].filter((row) => row.createdAt.slice(0, 10) >= from && row.createdAt.slice(0, 10) <= to);
  return {
    body: {
      success: true,
      message: 'ok',
      data: { items, total: items.length, totalExact: true, page: 1, pageSize: 10 },
    },
  };
}

function setDate(label: 'From' | 'To', value: string): void {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

describe('transactions date range', () => {
  it('filters the list by the days chosen', async () => {
    const calls = fakeApi({ '/api/transactions/get-all-transactions-by-user': history });
    renderWithApp(<TransactionsPage user={USER} onResetPin={() => undefined} />);
    expect(await screen.findByText('Showing 1–2 of 2 transactions')).toBeTruthy();
    setDate('From', '2026-03-01');
    setDate('To', '2026-03-31');
    expect(await screen.findByText('Showing 1–1 of 1 transactions')).toBeTruthy();
    expect(screen.getAllByText('march-deposit').length).toBeGreaterThan(0);
    expect(screen.queryByText('april-transfer')).toBeNull();
    const last = calls.filter((call) => call.body.pageSize === 10).at(-1);
    expect(last?.body).toMatchObject({ from: '2026-03-01', to: '2026-03-31', page: 1 });
    await userEvent.click(screen.getByRole('button', { name: 'Clear dates' }));
    expect(await screen.findByText('Showing 1–2 of 2 transactions')).toBeTruthy();
  });

  it("downloads the chosen period's statement as CSV and PDF with the session's token", async () => {
    storeToken('session-token');
    const calls = fakeApi({
      '/api/transactions/get-all-transactions-by-user': history,
      '/api/transactions/statement.csv': () => ({ body: 'sequence,position' }),
      '/api/transactions/statement.pdf': () => ({ body: '%PDF-1.3' }),
    });
    const createObjectURL = vi.fn(() => 'blob:statement');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    renderWithApp(<TransactionsPage user={USER} onResetPin={() => undefined} />);
    setDate('From', '2026-03-01');
    setDate('To', '2026-04-30');
    expect(screen.getByText('Download statement (2026-03-01 to 2026-04-30):')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /CSV/ }));
    await userEvent.click(screen.getByRole('button', { name: /PDF/ }));
    await waitFor(() =>
      expect(clicked).toEqual(['statement-2026-03-01-to-2026-04-30.csv', 'statement-2026-03-01-to-2026-04-30.pdf']),
    );
    // The PDF is worded in the reader's language; the CSV's columns are the same in both.
    for (const [format, query] of [
      ['csv', { from: '2026-03-01', to: '2026-04-30' }],
      ['pdf', { from: '2026-03-01', to: '2026-04-30', lang: 'en' }],
    ] as const) {
      const call = calls.find((candidate) => candidate.path === `/api/transactions/statement.${format}`);
      expect(call?.query).toEqual(query);
      expect(call?.headers).toMatchObject({ authorization: 'Bearer session-token' });
    }
    expect(createObjectURL).toHaveBeenCalledTimes(2);

    await i18next.changeLanguage('hi');
    try {
      await userEvent.click(screen.getByRole('button', { name: /PDF/ }));
      await waitFor(() => expect(createObjectURL).toHaveBeenCalledTimes(3));
      const pdfCalls = calls.filter((candidate) => candidate.path === '/api/transactions/statement.pdf');
      expect(pdfCalls.at(-1)?.query).toEqual({ from: '2026-03-01', to: '2026-04-30', lang: 'hi' });
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  it('refuses a backwards range or one longer than a statement, without filtering by it', async () => {
    const calls = fakeApi({ '/api/transactions/get-all-transactions-by-user': history });
    renderWithApp(<TransactionsPage user={USER} onResetPin={() => undefined} />);
    setDate('To', '2026-04-01');
    setDate('From', '2026-04-02');
    expect((await screen.findByRole('alert')).textContent).toBe('The start date must not be after the end date');
    expect((screen.getByRole('button', { name: /CSV/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(calls.some((call) => call.body.from === '2026-04-02')).toBe(false);
    setDate('From', '2024-01-01');
    expect((await screen.findByRole('alert')).textContent).toBe('A statement covers at most 366 days');
  });
});

describe('statement period', () => {
  it('is the range chosen, or this month up to today', () => {
    expect(statementPeriod('', '', '2026-11-24')).toEqual({ from: '2026-11-01', to: '2026-11-24' });
    expect(statementPeriod('2026-03-01', '', '2026-11-24')).toEqual({ from: '2026-03-01', to: '2026-11-24' });
    expect(statementPeriod('', '2026-04-30', '2026-11-24')).toEqual({ from: '2026-04-01', to: '2026-04-30' });
  });
});
