/**
 * The operations page's approvals: another admin's request can be approved (the approve
 * route is called), one's own only withdrawn; the list refreshes after a decision. Each row
 * names the customer and the method.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, renderWithApp } from '../../../test/harness.tsx';
import { OperationsPage } from './OperationsPage.tsx';

function approval(id: string, requestedBy: string, requestedByName: string) {
  return {
    id,
    action: 'settle',
    target: `deposit-${id}`,
    amount: 25000,
    reason: null,
    requestedBy,
    requestedByName,
    requestedAt: '2026-11-22T05:00:00.000Z',
    state: 'pending',
    decidedBy: null,
    decidedByName: null,
    decidedAt: null,
    decisionReason: null,
    customerId: `wallet-${id}`,
    customerName: 'Meera Iyer',
    method: 'upi',
  };
}

describe('approvals on the operations page', () => {
  it('lets a second admin approve, and the requester only withdraw', async () => {
    let pending = [approval('a1', 'other-admin', 'Ravi Admin'), approval('a2', 'me', 'Me Admin')];
    const calls = fakeApi({
      '/api/admin/approvals': () => ({ body: { success: true, message: 'ok', data: pending } }),
      '/api/admin/approvals/a1/approve': () => {
        pending = pending.filter((row) => row.id !== 'a1');
        return { body: { success: true, message: 'Approved: the deposit has been settled', data: {} } };
      },
      '/api/admin/trial-balance': () => ({
        body: {
          success: true,
          message: 'ok',
          data: { byKind: [], fundingSources: [], total: 0, balanced: true, lastVerify: null },
        },
      }),
      '/api/admin/projections': () => ({
        body: {
          success: true,
          message: 'ok',
          data: { projections: [], heldBackEvents: 0, heldBackSeconds: null, holder: null },
        },
      }),
      '/api/admin/audit-trail': () => ({
        body: { success: true, message: 'ok', data: { items: [], nextBefore: null } },
      }),
    });
    renderWithApp(<OperationsPage currentUserId="me" />, { path: '/admin/operations' });
    const table = await screen.findByRole('table', { name: 'Waiting for a second admin' });
    expect(within(table).getAllByRole('button', { name: /^Approve / })).toHaveLength(1);
    // Named by customer and method, not by the stream id.
    expect(within(table).getAllByText('Meera Iyer')).toHaveLength(2);
    expect(within(table).getAllByText('UPI')).toHaveLength(2);
    expect(within(table).getByText('Needs another admin')).toBeTruthy();
    // The action by its name, never the wire's code.
    expect(within(table).getAllByText('Settlement')).toHaveLength(2);
    expect(within(table).queryByText('settle')).toBeNull();
    expect(within(table).getByRole('button', { name: 'Reject settlement of deposit-a2' }).textContent).toBe('Withdraw');
    await userEvent.click(within(table).getByRole('button', { name: 'Approve settlement of deposit-a1' }));
    expect(await screen.findByText('Approved: the deposit has been settled')).toBeTruthy();
    expect(calls.some((call) => call.path === '/api/admin/approvals/a1/approve' && call.method === 'POST')).toBe(true);
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: 'Waiting for a second admin' })).queryByRole('button', {
          name: /^Approve /,
        }),
      ).toBeNull(),
    );
  });
});
