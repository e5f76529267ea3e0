/**
 * The account audit page: Reverse only on reversible rows that are not yet reversed, and
 * "Load more" appends the next keyset page (and disappears on the last one).
 */
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, renderWithApp } from '../../../test/harness.tsx';
import { AccountAuditPage } from './AccountAuditPage.tsx';

function line(sequence: number, eventType: string, streamId: string, amount: number, balanceAfter: number) {
  return {
    sequence: String(sequence),
    position: String(sequence + 10),
    recordedAt: '2026-11-22T05:00:00.000Z',
    eventType,
    streamId,
    transactionId: streamId,
    counterpartyId: 'k',
    counterpartyName: 'Kabir Shah',
    amount,
    balanceAfter,
  };
}

const FIRST = [
  line(1, 'DepositSettled', 'deposit-d1', 2000, 2000),
  line(2, 'TransferCompleted', 'transfer-t1', -500, 1500),
];
const SECOND = [
  line(3, 'TransferCompleted', 'transfer-t2', -100, 1400),
  line(4, 'TransferReversed', 'transfer-t2', 100, 1500),
  line(5, 'MoneyRequested', 'request-r1', 0, 1500),
];

describe('account audit page', () => {
  it('offers Reverse only on reversible, unreversed rows and pages with Load more', async () => {
    let statementCalls = 0;
    fakeApi({
      '/api/users/get-all-users': () => ({
        body: {
          success: true,
          message: 'ok',
          data: [
            {
              _id: 'u1',
              firstName: 'Meera',
              lastName: 'Iyer',
              email: 'meera@example.in',
              isAdmin: false,
              isVerified: true,
            },
          ],
        },
      }),
      '/api/admin/accounts/u1/statement': () => {
        statementCalls += 1;
        const first = statementCalls === 1;
        return {
          body: {
            success: true,
            message: 'ok',
            data: {
              accountId: 'u1',
              displayName: 'Meera Iyer',
              kind: 'wallet',
              balance: 1500,
              items: first ? FIRST : SECOND,
              nextAfter: first ? '2' : null,
            },
          },
        };
      },
      '/api/admin/accounts/u1/events': () => ({
        body: { success: true, message: 'ok', data: { items: [], nextAfter: null } },
      }),
    });
    renderWithApp(<AccountAuditPage />, { path: '/admin/audit?account=u1' });
    const table = await screen.findByRole('table', { name: 'Statement' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(
      within(table)
        .getAllByRole('button', { name: /^Reverse / })
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual(['Reverse DepositSettled at position 11', 'Reverse TransferCompleted at position 12']);
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByText('TransferReversed', { selector: '.only-desktop *' });
    expect(within(table).getAllByRole('row')).toHaveLength(6);
    // transfer-t2 is reversed on the second page; MoneyRequested moves no money back.
    expect(within(table).getAllByRole('button', { name: /^Reverse / })).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(statementCalls).toBe(2);
  });
});
