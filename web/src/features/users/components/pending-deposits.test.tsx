/**
 * The Users page's pending deposits: each row shows the deposit's transaction id and settles
 * or fails that id (with an Idempotency-Key); a settlement filed for a second admin (202) says
 * so and the row stays; a failure needs a reason of at least 3 characters. Each row shows what
 * the payer entered and opens a detail; a settlement waiting for a second admin says so, and
 * only another admin can approve it there.
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
    payer: { upiId: 'asha@okbank', accountNumber: null, ifscCode: null, bankName: null },
    awaitingApproval: null as null | {
      approvalId: string;
      requestedBy: string;
      requestedByName: string;
      requestedAt: string;
    },
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

  it("shows the payer's details, opens a row's detail, and lets a second admin approve a waiting settlement", async () => {
    const waiting = {
      ...pending(DEPOSIT_ID, 'Asha Rao', 12000),
      awaitingApproval: {
        approvalId: 'ap-1',
        requestedBy: 'other-admin',
        requestedByName: 'Ravi Admin',
        requestedAt: '2026-11-27T06:00:00.000Z',
      },
    };
    const mine = {
      ...pending('d-3', 'Kabir Shah', 20000),
      payer: { upiId: null, accountNumber: '001234567890', ifscCode: 'HDFC0001234', bankName: 'HDFC Bank' },
      awaitingApproval: { ...waiting.awaitingApproval, approvalId: 'ap-2', requestedBy: 'me', requestedByName: 'Me' },
    };
    const calls = fakeApi({
      '/api/users/get-all-users': () => ({ body: { success: true, message: 'ok', data: [] } }),
      '/api/admin/pending-deposits': () => page([waiting, mine]),
      '/api/admin/approvals/ap-1/approve': () => ({
        body: { success: true, message: 'Approved: the deposit has been settled', data: {} },
      }),
    });
    renderWithApp(<UsersPage currentUserId="me" />, { path: '/users' });
    const table = await screen.findByRole('table', { name: 'Pending deposits' });
    const row = within(table).getByText(DEPOSIT_ID).closest('tr') as HTMLElement;
    expect(within(row).getByText('UPI asha@okbank')).toBeTruthy();
    expect(within(row).getByText('Waiting for a second admin')).toBeTruthy();
    expect(within(row).queryByRole('button', { name: /^Settle / })).toBeNull();
    const own = within(table).getByText('d-3').closest('tr') as HTMLElement;
    expect(within(own).getByText('A/c 001234567890 · HDFC0001234 · HDFC Bank')).toBeTruthy();
    // The admin who asked waits: no Settle and no Approve of their own.
    expect(within(own).queryByRole('button', { name: /^(Settle|Approve) / })).toBeNull();

    await userEvent.click(within(own).getByRole('button', { name: 'Details of ₹20,000 from Kabir Shah' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deposit of ₹20,000 from Kabir Shah' });
    expect(within(dialog).getByText('HDFC Bank')).toBeTruthy();
    expect(within(dialog).getByText('001234567890')).toBeTruthy();
    await userEvent.click(within(dialog).getAllByRole('button', { name: 'Close' })[0] as HTMLElement);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await userEvent.click(within(row).getByRole('button', { name: 'Approve settling ₹12,000 from Asha Rao' }));
    expect(await screen.findByText('Approved: the deposit has been settled')).toBeTruthy();
    expect(calls.some((call) => call.path === '/api/admin/approvals/ap-1/approve' && call.method === 'POST')).toBe(
      true,
    );
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
