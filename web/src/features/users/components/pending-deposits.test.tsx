/**
 * The Users page's pending deposits: each row shows the deposit's transaction id and settles
 * or fails that id (with an Idempotency-Key); a settlement filed for a second admin (202) says
 * so and the row stays; a failure needs a reason of at least 3 characters.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, renderWithApp } from '../../../test/harness.tsx';
import { UsersPage } from './UsersPage.tsx';

const DEPOSIT_ID = '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f';

function pending(id: string, ownerName: string, amount: number) {
  return {
    depositId: id,
    walletId: `wallet-of-${ownerName}`,
    ownerName,
    method: 'upi',
    amount,
    reference: 'top up',
    requestedAt: '2026-11-27T05:00:00.000Z',
    position: '42',
  };
}

function page(items: unknown[]) {
  return { body: { success: true, message: 'ok', data: { items, nextAfter: null } } };
}

describe('pending deposits on the Users page', () => {
  it('settles the row it is on by the id the API takes; a filed settlement says it waits', async () => {
    const items = [pending(DEPOSIT_ID, 'Asha Rao', 12000), pending('d-2', 'Ravi Kumar', 300)];
    const calls = fakeApi({
      '/api/users/get-all-users': () => ({ body: { success: true, message: 'ok', data: [] } }),
      '/api/admin/pending-deposits': () => page(items),
      '/api/transactions/settle-deposit': () => ({
        status: 202,
        body: {
          success: true,
          message: "Awaiting a second admin's approval: amounts above ₹10,000 need two admins",
          data: { status: 'awaiting_approval' },
        },
      }),
    });
    renderWithApp(<UsersPage currentUserId="me" />, { path: '/users' });
    const table = await screen.findByRole('table', { name: 'Pending deposits' });
    const row = within(table).getByText(DEPOSIT_ID).closest('tr');
    expect(row).not.toBeNull();
    await userEvent.click(within(row as HTMLElement).getByRole('button', { name: 'Settle ₹12,000 from Asha Rao' }));
    expect(await screen.findByText(/Awaiting a second admin's approval/)).toBeTruthy();
    const settle = calls.find((call) => call.path === '/api/transactions/settle-deposit');
    expect(settle?.body).toEqual({ depositId: DEPOSIT_ID });
    expect(settle?.headers['Idempotency-Key'] ?? settle?.headers['idempotency-key']).toBeTruthy();
    expect(within(table).getByText(DEPOSIT_ID)).toBeTruthy();
  });

  it('fails a deposit only with a reason, and the list refreshes without it', async () => {
    let items = [pending('d-2', 'Ravi Kumar', 300)];
    const calls = fakeApi({
      '/api/users/get-all-users': () => ({ body: { success: true, message: 'ok', data: [] } }),
      '/api/admin/pending-deposits': () => page(items),
      '/api/transactions/fail-deposit': () => {
        items = [];
        return { body: { success: true, message: 'Deposit marked as failed', data: { depositId: 'd-2' } } };
      },
    });
    renderWithApp(<UsersPage currentUserId="me" />, { path: '/users' });
    const table = await screen.findByRole('table', { name: 'Pending deposits' });
    await userEvent.click(within(table).getByRole('button', { name: 'Fail ₹300 from Ravi Kumar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark deposit as failed' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark failed' }));
    expect(await within(dialog).findByText('A reason of at least 3 characters is required')).toBeTruthy();
    expect(calls.some((call) => call.path === '/api/transactions/fail-deposit')).toBe(false);
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'Never arrived');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark failed' }));
    expect(await screen.findByText('Deposit marked as failed')).toBeTruthy();
    expect(calls.find((call) => call.path === '/api/transactions/fail-deposit')?.body).toEqual({
      depositId: 'd-2',
      reason: 'Never arrived',
    });
    expect(await screen.findByText('No deposits waiting')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
