/**
 * The dashboard's rough edges (issue 31): the exact balance to the paisa (never rounded up),
 * hide/show kept; Send (Quick Actions) before the QR card in the page's order, so a phone's
 * single column shows it first; Recent Activity in people's words, a pending deposit drawn as
 * pending, and dates in the app's one format (en-IN, India Standard Time).
 */
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TransactionRecord } from '../../../../../contracts/transactions.ts';
import { fakeApi, renderWithApp, USER } from '../../../test/harness.tsx';
import { DashboardPage } from './DashboardPage.tsx';

const ok = (data: unknown) => () => ({ body: { success: true, message: 'ok', data } });

const RECENT: TransactionRecord[] = [
  {
    _id: 'tx-1',
    sender: USER._id,
    receiver: 'user-ravi-2',
    amount: 400,
    reference: 'dinner split',
    status: 'success',
    type: 'debit',
    method: 'transfer',
    counterpartyId: 'user-ravi-2',
    counterpartyName: 'Ravi Kumar',
    // 23:45 UTC is 5:15 am the next day in India.
    createdAt: '2026-11-26T23:45:00.000Z',
  },
  {
    _id: 'tx-2',
    sender: USER._id,
    receiver: USER._id,
    amount: 250,
    reference: 'upi top up',
    status: 'pending',
    type: 'deposit',
    method: 'upi',
    counterpartyId: 'funding:upi',
    counterpartyName: 'UPI',
    createdAt: '2026-11-26T10:00:00.000Z',
  },
];

function renderDashboard(balance: number) {
  fakeApi({
    '/api/users/generate-qr': ok('data:image/png;base64,AA=='),
    '/api/transactions/get-all-transactions-by-user': ok({ items: RECENT, total: 2, page: 1, pageSize: 3 }),
    '/api/transactions/statement/charts': ok(null),
  });
  return renderWithApp(<DashboardPage user={{ ...USER, balance }} />);
}

describe('dashboard', () => {
  it('shows the exact balance to the paisa, never rounded up, and hides it', async () => {
    renderDashboard(4000.5);
    const balance = screen.getByTestId('balance');
    expect(balance.textContent).toBe('₹4,000.50');
    await userEvent.click(screen.getByRole('button', { name: 'Hide balance' }));
    expect(balance.textContent).toBe('****');
    await userEvent.click(screen.getByRole('button', { name: 'Show balance' }));
    expect(balance.textContent).toBe('₹4,000.50');
  });

  it('puts Send money before the payment QR in the page order (a phone shows it first)', () => {
    renderDashboard(0);
    expect(screen.getByTestId('balance').textContent).toBe('₹0.00');
    const send = screen.getByRole('link', { name: 'Send Money' });
    const qr = screen.getByRole('heading', { name: 'Payment QR Code' });
    expect(send.compareDocumentPosition(qr) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("lists recent activity in people's words, pending as pending, dates in India Standard Time", async () => {
    renderDashboard(1000);
    const paid = (await screen.findByText('Paid to Ravi Kumar')).closest('li');
    if (!paid) throw new Error('no recent item');
    expect(within(paid).getByText(/dinner split/).textContent).toBe('dinner split · 27 Nov 2026, 5:15 am');
    // Not "Added by UPI": nothing is added until the money comes.
    const added = screen.getByText('UPI deposit, pending').closest('li');
    if (!added) throw new Error('no recent item');
    expect(within(added).getByText('+₹250').className).toContain('amount-pending');
  });
});
