/**
 * The Users page in Hindi: title, tabs with their counts, table headers, Suspend / Activate
 * named after the user, and the pending deposits card with Settle and Fail; the users' names,
 * e-mails and amounts stay as they are.
 */
import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setLanguage } from '../../../i18n/i18n.ts';
import { fakeApi, renderWithApp } from '../../../test/harness.tsx';
import { UsersPage } from './UsersPage.tsx';

const USERS = [
  {
    _id: 'u-1',
    firstName: 'Asha',
    lastName: 'Rao',
    email: 'asha@example.com',
    contactNo: '9800000001',
    isAdmin: false,
    isVerified: true,
    createdAt: '2026-11-01T05:00:00.000Z',
  },
  {
    _id: 'u-2',
    firstName: 'Ravi',
    lastName: 'Kumar',
    email: 'ravi@example.com',
    contactNo: '9800000002',
    isAdmin: false,
    isVerified: false,
    createdAt: '2026-11-02T05:00:00.000Z',
  },
];

const DEPOSIT = {
  depositId: 'd-1',
  walletId: 'wallet-1',
  ownerName: 'Ravi Kumar',
  method: 'upi',
  amount: 500,
  reference: 'top up',
  requestedAt: '2026-11-27T05:00:00.000Z',
  position: '42',
  // As the API sends it (contracts/admin-replies.ts, pendingDepositSchema).
  payer: { upiId: 'ravi@okbank', accountNumber: null, ifscCode: null, bankName: null },
  awaitingApproval: null,
};

describe('the Users page in Hindi', () => {
  it('shows its tabs, headers, buttons and the pending deposits in Hindi', async () => {
    fakeApi({
      '/api/users/get-all-users': () => ({ body: { success: true, message: 'ok', data: USERS } }),
      '/api/admin/pending-deposits': () => ({
        body: { success: true, message: 'ok', data: { items: [DEPOSIT], nextAfter: null } },
      }),
    });
    act(() => setLanguage('hi'));
    renderWithApp(<UsersPage currentUserId="me" />, { path: '/users' });

    expect(await screen.findByRole('heading', { name: 'उपयोगकर्ता' })).toBeTruthy();
    const users = await screen.findByRole('table', { name: 'उपयोगकर्ता' });
    const tabs = screen.getByRole('tablist', { name: 'उपयोगकर्ता फ़िल्टर' });
    expect(within(tabs).getByRole('tab', { name: 'सभी (2)' })).toBeTruthy();
    expect(within(tabs).getByRole('tab', { name: 'असत्यापित (1)' })).toBeTruthy();
    expect(within(users).getByRole('columnheader', { name: 'भूमिका' })).toBeTruthy();
    expect(within(users).getByRole('button', { name: 'Asha Rao को निलंबित करें' })).toBeTruthy();
    expect(within(users).getByRole('button', { name: 'Ravi Kumar को चालू करें' })).toBeTruthy();

    const deposits = await screen.findByRole('table', { name: 'लंबित जमा' });
    expect(within(deposits).getByRole('button', { name: 'Ravi Kumar के ₹500 का निपटान करें' })).toBeTruthy();
    expect(within(deposits).getByRole('button', { name: 'Ravi Kumar के ₹500 को विफल करें' })).toBeTruthy();
    expect(within(deposits).getByText('UPI')).toBeTruthy();
  });
});
