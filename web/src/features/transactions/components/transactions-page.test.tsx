/**
 * The transactions page's counter and pager: "Showing a-b of n" from the server's total, and
 * for a search with more matches than the server counts, "of 1,000+" with Next enabled while
 * pages come back full.
 */
import { screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TransactionRecord } from '../../../../../contracts/transactions.ts';
import { fakeApi, renderWithApp, USER, type RecordedCall } from '../../../test/harness.tsx';
import { TransactionsPage } from './TransactionsPage.tsx';

function record(n: number): TransactionRecord {
  return {
    _id: `t-${n}`,
    sender: USER._id,
    receiver: 'user-ravi-2',
    amount: 100,
    reference: `rent ${n}`,
    status: 'success',
    type: 'debit',
    method: 'transfer',
    counterpartyId: 'user-ravi-2',
    counterpartyName: 'Ravi Kumar',
    createdAt: '2026-11-01T10:00:00.000Z',
  };
}

/** 10 rows per page; a search says "at least 1,000", the full history counts 2,400 exactly. */
function history(call: RecordedCall) {
  const page = Number(call.body.page ?? 1);
  const pageSize = Number(call.body.pageSize ?? 10);
  const searching = typeof call.body.search === 'string';
  const items = Array.from({ length: pageSize }, (_, i) => record((page - 1) * pageSize + i));
  const data = searching
    ? { items, total: 1000, totalExact: false, page, pageSize }
    : { items, total: 2400, totalExact: true, page, pageSize };
  return { body: { success: true, message: 'Transactions fetched successfully', data } };
}

describe('transactions page', () => {
  it('shows an exact total, and "1,000+" for a search with more matches than counted, paging on past it', async () => {
    fakeApi({ '/api/transactions/get-all-transactions-by-user': history });
    renderWithApp(<TransactionsPage user={USER} onResetPin={() => undefined} />);
    expect(await screen.findByText('Showing 1–10 of 2400 transactions')).toBeTruthy();
    await userEvent.type(screen.getByPlaceholderText(/search/i), 'rent');
    expect(await screen.findByText('Showing 1–10 of 1,000+ transactions')).toBeTruthy();
    expect(screen.getByText('1,000+ of 2400 transactions')).toBeTruthy();
    const next = screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement;
    expect(next.disabled).toBe(false);
    await userEvent.click(next);
    expect(await screen.findByText('Showing 11–20 of 1,000+ transactions')).toBeTruthy();
  });
});
