/**
 * Send Request: verify first (Verify -> Verified, field locked), the spec's amount and
 * reference rules, each reason on its field and not repeated in a toast, and the payload.
 */
import { screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, renderWithApp, USER } from '../../../test/harness.tsx';
import { SendRequestDialog } from './SendRequestDialog.tsx';

const verified = () => ({
  body: { success: true, message: 'ok', data: { name: 'Ravi Kumar', accountNumber: 'user-ravi-2' } },
});

function renderDialog() {
  renderWithApp(<SendRequestDialog open onOpenChange={() => undefined} userId={USER._id} />);
}

describe('send request dialog', () => {
  it('keeps Send disabled until verified and refuses the own account', async () => {
    const calls = fakeApi({});
    renderDialog();
    expect(screen.getByText('Request funds from another account')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Send Request' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.type(screen.getByPlaceholderText('Enter account number to request from'), USER._id);
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Cannot send request to yourself')).toBeTruthy();
    expect(screen.getAllByText('Cannot send request to yourself')).toHaveLength(1);
    expect(screen.queryAllByTestId('toast')).toHaveLength(0);
    expect(calls).toHaveLength(0);
  });

  it('verifies, locks the field, checks amount and reference, then sends the trimmed payload', async () => {
    const calls = fakeApi({
      '/api/transactions/verify-account': verified,
      '/api/requests/send-request': () => ({
        body: { success: true, message: 'Request sent successfully', data: { checkpoint: '7.2' } },
      }),
    });
    renderDialog();
    const account = screen.getByLabelText('Account Number') as HTMLInputElement;
    await userEvent.type(account, 'user-ravi-2');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Account Verified')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Verified' })).toBeTruthy();
    expect(account.readOnly).toBe(true);
    await userEvent.type(screen.getByLabelText('Amount (₹)'), '1000000.01');
    await userEvent.type(screen.getByLabelText('Reference'), 'ab');
    await userEvent.click(screen.getByRole('button', { name: 'Send Request' }));
    expect(await screen.findByText('Amount cannot exceed ₹10,00,000')).toBeTruthy();
    expect(screen.getByText('Reference must be at least 3 characters')).toBeTruthy();
    expect(screen.getAllByText('Amount cannot exceed ₹10,00,000')).toHaveLength(1);
    expect(screen.getByText('2/500')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('Amount (₹)'));
    await userEvent.type(screen.getByLabelText('Amount (₹)'), '0');
    await userEvent.click(screen.getByRole('button', { name: 'Send Request' }));
    expect((await screen.findAllByText('Please enter a valid amount greater than 0')).length).toBeGreaterThan(0);
    await userEvent.clear(screen.getByLabelText('Amount (₹)'));
    await userEvent.type(screen.getByLabelText('Amount (₹)'), '250.5');
    await userEvent.type(screen.getByLabelText('Reference'), 'c lunch ');
    await userEvent.click(screen.getByRole('button', { name: 'Send Request' }));
    expect(await screen.findByText('Request sent successfully')).toBeTruthy();
    const sent = calls.find((call) => call.path === '/api/requests/send-request');
    expect(sent?.body).toEqual({ receiver: 'user-ravi-2', amount: 250.5, reference: 'abc lunch' });
    expect(sent?.headers['idempotency-key']).toBeTruthy();
  });

  it('uses the request dialog fallback when verification cannot reach the server', async () => {
    fakeApi({
      '/api/transactions/verify-account': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    renderDialog();
    await userEvent.type(screen.getByLabelText('Account Number'), 'user-ravi-2');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findAllByText('Verification error occurred')).length).toBeGreaterThan(0);
  });
});
