/**
 * Approving a received request: the requester's account is verified first and the
 * confirmation names the verified person and the exact amount ("Pay ₹1,00,000.00 to ...");
 * the PIN is asked only after Confirm, and Back returns one step.
 */
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, renderWithApp, USER } from '../../../test/harness.tsx';
import { RequestsPage } from './RequestsPage.tsx';

const REQUEST = {
  _id: 'req-00000001-vikram',
  amount: 100000,
  reference: 'flat deposit share',
  status: 'pending',
  createdAt: '2026-03-01T10:00:00.000Z',
  sender: { _id: 'user-vikram-2', firstName: 'Vikram', lastName: 'N' },
  receiver: { _id: USER._id, firstName: USER.firstName, lastName: USER.lastName },
};

function requestsApi(verify: () => { status?: number; body: unknown }) {
  return fakeApi({
    '/api/requests/get-all-requests-by-user': () => ({ body: { success: true, message: 'ok', data: [REQUEST] } }),
    '/api/transactions/verify-account': verify,
    '/api/requests/update-request-status': () => ({
      body: { success: true, message: 'ok', data: { checkpoint: '11.1' } },
    }),
  });
}

describe('approve request dialog', () => {
  it('confirms "Pay ₹1,00,000.00 to <verified name>", then asks for the PIN and pays', async () => {
    const calls = requestsApi(() => ({
      body: { success: true, message: 'ok', data: { name: 'Vikram Nair', accountNumber: 'user-vikram-2' } },
    }));
    renderWithApp(<RequestsPage userId={USER._id} />);
    const table = await screen.findByRole('table', { name: 'Received requests' });
    await userEvent.click(within(table).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve request' });
    // The name is the server's verified one, not the request's stored "Vikram N".
    expect((await within(dialog).findByTestId('confirm-pay-title')).textContent).toBe(
      'Pay ₹1,00,000.00 to Vikram Nair',
    );
    expect(calls.find((call) => call.path === '/api/transactions/verify-account')?.body).toEqual({
      receiver: 'user-vikram-2',
    });
    expect(within(dialog).queryByLabelText('Transaction PIN')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Back' }));
    expect(within(dialog).queryByLabelText('Transaction PIN')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve and pay' }));
    expect(await within(dialog).findByText('Transaction PIN is required')).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText('Transaction PIN'), '1234');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve and pay' }));
    expect(await screen.findByText('Request approved successfully')).toBeTruthy();
    expect(calls.find((call) => call.path === '/api/requests/update-request-status')?.body).toEqual({
      requestId: REQUEST._id,
      status: 'accepted',
      transactionPin: '1234',
    });
  });

  it('opens on Received, and a phone card shows Approve / Reject without being opened', async () => {
    requestsApi(() => ({ body: { success: true, message: 'ok', data: { name: 'Vikram Nair' } } }));
    renderWithApp(<RequestsPage userId={USER._id} />);
    await screen.findByRole('table', { name: 'Received requests' });
    expect(screen.getByRole('tab', { selected: true }).textContent).toBe('Received (1)');
    const card = document.querySelector<HTMLElement>('.card-list .list-card');
    if (!card) throw new Error('no phone card drawn');
    expect(within(card).getByRole('button', { expanded: false }).textContent).toContain('Vikram N');
    expect(within(card).getByRole('button', { name: 'Approve' })).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Reject' })).toBeTruthy();
  });

  it('offers no way to pay when the requester cannot be verified', async () => {
    const calls = requestsApi(() => ({ status: 404, body: { success: false, message: 'Account not found' } }));
    renderWithApp(<RequestsPage userId={USER._id} />);
    const table = await screen.findByRole('table', { name: 'Received requests' });
    await userEvent.click(within(table).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve request' });
    expect(await within(dialog).findByText('Account not found')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Confirm' })).toBeNull();
    expect(calls.filter((call) => call.path === '/api/requests/update-request-status')).toHaveLength(0);
  });
});
