/**
 * The trial balance card: an unbalanced ledger and a verify run that found differences are
 * shown as such (the tiles in danger, each difference listed), with a row per account kind
 * and per funding source; a ledger never verified says so.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, renderWithApp } from '../../../test/harness.tsx';
import { TrialBalanceCard } from './TrialBalanceCard.tsx';

const UNBALANCED = {
  byKind: [
    { kind: 'wallet', accounts: 3, balance: 1500, balancePaise: '150000' },
    { kind: 'funding', accounts: 1, balance: -1499, balancePaise: '-149900' },
  ],
  total: 1,
  totalPaise: '100',
  balanced: false,
  fundingSources: [{ method: 'upi', accountId: 'funding-upi', balance: -1499, balancePaise: '-149900', postings: 7 }],
  lastVerify: {
    id: '12',
    ranAt: '2026-11-22T05:00:00.000Z',
    source: 'cli',
    ok: false,
    differences: ['wallet w1: head 100 != postings 0', 'zero sum: 100'],
    totalPaise: '100',
    durationMs: 42,
  },
};

function serve(data: unknown): void {
  fakeApi({ '/api/admin/trial-balance': () => ({ body: { success: true, message: 'ok', data } }) });
}

describe('the trial balance card', () => {
  it('shows an unbalanced ledger, the failed verify with its differences, and the rows by kind and source', async () => {
    serve(UNBALANCED);
    renderWithApp(<TrialBalanceCard />);

    expect(await screen.findByText('2 difference(s)')).toBeTruthy();
    expect(screen.getByText('No')).toBeTruthy();
    expect(screen.getByText(/Last verify run .* by cli in 42 ms\./)).toBeTruthy();
    expect(screen.getByText('Verify found differences')).toBeTruthy();
    expect(screen.getByText('wallet w1: head 100 != postings 0')).toBeTruthy();
    expect(screen.getByText('zero sum: 100')).toBeTruthy();
    const kinds = screen.getByRole('table', { name: 'Trial balance by account kind' });
    expect(within(kinds).getByText('wallet')).toBeTruthy();
    expect(within(kinds).getByText('funding')).toBeTruthy();
    const sources = screen.getByRole('table', { name: 'Funding sources' });
    expect(within(sources).getByText('upi')).toBeTruthy();
    expect(within(sources).getByText('7')).toBeTruthy();
  });

  it('says a ledger never verified was never run, and lists no differences', async () => {
    serve({ ...UNBALANCED, balanced: true, total: 0, totalPaise: '0', lastVerify: null });
    renderWithApp(<TrialBalanceCard />);

    expect(await screen.findByText('Never run')).toBeTruthy();
    expect(screen.getByText('Yes')).toBeTruthy();
    expect(screen.queryByText('Verify found differences')).toBeNull();
    expect(screen.queryByText(/Last verify run/)).toBeNull();
  });
});
