/**
 * Transfer and deposit dialogs: the spec's rules and messages (section 5), verification
 * before paying, the Idempotency-Key, and the exact payloads.
 */
import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, renderWithApp, USER } from '../../../test/harness.tsx';
import { latestCheckpoint } from '../../../lib/checkpoint.ts';
import { cardErrors, sandboxPaymentMethodId } from './card-rules.ts';
import { DepositDialog } from './DepositDialog.tsx';
import { TransferDialog } from './TransferDialog.tsx';

const verified = () => ({
  body: {
    success: true,
    message: 'ok',
    data: { name: 'Ravi Kumar', accountNumber: 'user-ravi-2', bankName: 'Rupee Wallet' },
  },
});

/** The calls a dialog made, but the recent payees it reads as it opens. */
function commands<Call extends { path: string }>(calls: Call[]): Call[] {
  return calls.filter((call) => call.path !== '/api/transactions/recent-payees');
}

function renderTransfer(balance = 1000) {
  renderWithApp(<TransferDialog open onOpenChange={() => undefined} userId={USER._id} balance={balance} />);
}

async function verifyRavi(): Promise<void> {
  await userEvent.type(screen.getByLabelText('Receiver account number'), 'user-ravi-2');
  await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
  await screen.findByText('Ravi Kumar');
}

/** Details filled: Continue, the confirmation, Confirm, then the PIN and Pay. */
async function confirmAndPay(pin = '1234'): Promise<void> {
  await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
  await userEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
  await userEvent.type(await screen.findByLabelText('Transaction PIN'), pin);
  await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
}

describe('transfer dialog', () => {
  it('refuses to continue before the account is verified, each reason once, on its field (no toast repeats them)', async () => {
    const calls = fakeApi({});
    renderTransfer();
    await userEvent.type(screen.getByLabelText('Receiver account number'), 'user-ravi-2');
    await userEvent.type(screen.getByLabelText('Reference'), 'ab');
    // The PIN is asked only after the confirmation.
    expect(screen.queryByLabelText('Transaction PIN')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Please verify the account first')).toBeTruthy();
    expect(screen.getByText('Amount is required')).toBeTruthy();
    expect(screen.getByText('Reference must be at least 3 characters')).toBeTruthy();
    expect(screen.getAllByText('Amount is required')).toHaveLength(1);
    expect(screen.queryAllByTestId('toast')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Confirm' })).toBeNull();
    expect(commands(calls)).toHaveLength(0);
  });

  it('verifies and locks the account, checks the balance and the minimum', async () => {
    const calls = fakeApi({ '/api/transactions/verify-account': verified });
    renderTransfer(100);
    await userEvent.type(screen.getByLabelText('Receiver account number'), 'user-ravi-2');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Ravi Kumar')).toBeTruthy();
    expect(screen.getAllByText('Verified').length).toBeGreaterThan(0);
    expect((screen.getByLabelText('Receiver account number') as HTMLInputElement).readOnly).toBe(true);
    expect(commands(calls)[0]?.body).toEqual({ receiver: 'user-ravi-2' });
    await userEvent.type(screen.getByLabelText('Amount (₹)'), '150');
    await userEvent.type(screen.getByLabelText('Reference'), 'rent');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Insufficient balance')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('Amount (₹)'));
    await userEvent.type(screen.getByLabelText('Amount (₹)'), '0.5');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Minimum transfer amount is ₹1')).toBeTruthy();
    expect(commands(calls)).toHaveLength(1);
  });

  it('groups the amount as typed and confirms "Pay ₹X to <verified name>" before asking for the PIN', async () => {
    const calls = fakeApi({
      '/api/transactions/verify-account': verified,
      '/api/transactions/transfer-funds': () => ({
        body: { success: true, message: 'Transaction successful', data: { checkpoint: '8.1' } },
      }),
    });
    renderTransfer(200_000);
    await verifyRavi();
    const amount = screen.getByLabelText('Amount (₹)') as HTMLInputElement;
    await userEvent.type(amount, '100000');
    expect(amount.value).toBe('1,00,000');
    await userEvent.type(screen.getByLabelText('Reference'), 'deposit for flat');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByTestId('confirm-pay-title')).textContent).toBe('Pay ₹1,00,000.00 to Ravi Kumar');
    expect(screen.getByText('deposit for flat')).toBeTruthy();
    expect(screen.queryByLabelText('Transaction PIN')).toBeNull();
    // Back returns to the details as they were.
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect((screen.getByLabelText('Amount (₹)') as HTMLInputElement).value).toBe('1,00,000');
    await userEvent.type(screen.getByLabelText('Amount (₹)'), '.5');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByTestId('confirm-pay-title')).textContent).toBe('Pay ₹1,00,000.50 to Ravi Kumar');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Pay' }));
    expect(await screen.findByText('Transaction PIN is required')).toBeTruthy();
    expect(calls.filter((call) => call.path === '/api/transactions/transfer-funds')).toHaveLength(0);
    await userEvent.type(screen.getByLabelText('Transaction PIN'), '1234');
    await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
    expect(await screen.findByText('Transaction successful')).toBeTruthy();
    const transfer = calls.find((call) => call.path === '/api/transactions/transfer-funds');
    expect(transfer?.body).toMatchObject({ amount: 100000.5, reference: 'deposit for flat', transactionPin: '1234' });
  });

  it('pays a handle: the confirmation shows the name and the handle, and the server is sent the handle (issue 43)', async () => {
    const calls = fakeApi({
      '/api/transactions/find-payee': () => ({
        body: {
          success: true,
          message: 'ok',
          data: { name: 'Ravi Kumar', kind: 'handle', shown: 'ravi.k@wallet', isOwnAccount: false },
        },
      }),
      '/api/transactions/transfer-to-payee': () => ({
        body: { success: true, message: 'Transfer completed successfully!', data: { checkpoint: '9.1' } },
      }),
    });
    renderTransfer();
    await userEvent.type(screen.getByLabelText('Receiver account number'), 'Ravi.K@wallet');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Ravi Kumar')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Amount (₹)'), '25');
    await userEvent.type(screen.getByLabelText('Reference'), 'tea');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByTestId('confirm-pay-title')).textContent).toBe('Pay ₹25.00 to Ravi Kumar');
    expect(screen.getByText('Handle')).toBeTruthy();
    expect(screen.getByText('ravi.k@wallet')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await userEvent.type(await screen.findByLabelText('Transaction PIN'), '1234');
    await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
    expect(await screen.findByText('Transfer completed successfully!')).toBeTruthy();
    expect(commands(calls).map((call) => [call.path, call.body])).toEqual([
      ['/api/transactions/find-payee', { payee: 'Ravi.K@wallet' }],
      [
        '/api/transactions/transfer-to-payee',
        { payee: 'ravi.k@wallet', amount: 25, reference: 'tea', transactionPin: '1234' },
      ],
    ]);
  });

  it('a recent payee fills the payee with one tap and verifies it', async () => {
    const calls = fakeApi({
      '/api/transactions/recent-payees': () => ({
        body: {
          success: true,
          message: 'ok',
          data: [{ accountNumber: 'user-ravi-2', name: 'Ravi Kumar', lastPaidAt: '2025-01-01T00:00:00.000Z' }],
        },
      }),
      '/api/transactions/verify-account': verified,
    });
    renderTransfer();
    await userEvent.click(await screen.findByRole('button', { name: 'Pay Ravi Kumar' }));
    expect(await screen.findByText('Ravi Kumar')).toBeTruthy();
    expect((screen.getByLabelText('Receiver account number') as HTMLInputElement).value).toBe('user-ravi-2');
    expect(commands(calls)[0]?.body).toEqual({ receiver: 'user-ravi-2' });
  });

  it('pays with an Idempotency-Key, a new one after the server answered, and remembers the checkpoint', async () => {
    let attempts = 0;
    const calls = fakeApi({
      '/api/transactions/verify-account': verified,
      '/api/transactions/transfer-funds': () => {
        attempts += 1;
        return attempts === 1
          ? { status: 400, body: { success: false, message: 'Invalid transaction PIN' } }
          : { body: { success: true, message: 'Transaction successful', data: { checkpoint: '42.7' } } };
      },
    });
    renderTransfer();
    await verifyRavi();
    await userEvent.type(screen.getByLabelText('Amount (₹)'), '10.05');
    await userEvent.type(screen.getByLabelText('Reference'), '  rent  ');
    await confirmAndPay();
    expect(await screen.findByText('Invalid transaction PIN')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
    expect(await screen.findByText('Transaction successful')).toBeTruthy();
    const transfers = calls.filter((call) => call.path === '/api/transactions/transfer-funds');
    expect(transfers[0]?.body).toEqual({
      receiver: 'user-ravi-2',
      amount: 10.05,
      reference: 'rent',
      transactionPin: '1234',
      sender: USER._id,
      type: 'debit',
      status: 'success',
    });
    const firstKey = transfers[0]?.headers['idempotency-key'];
    expect(firstKey).toMatch(/^[0-9a-f-]{36}$/);
    // The server answered the first attempt, so the second is a new submission with a new key.
    expect(transfers[1]?.headers['idempotency-key']).not.toBe(firstKey);
    expect(latestCheckpoint()).toBe('42.7');
  });

  it('reuses the Idempotency-Key when the same payment is retried after a network failure', async () => {
    let attempts = 0;
    const calls = fakeApi({
      '/api/transactions/verify-account': verified,
      '/api/transactions/transfer-funds': () => {
        attempts += 1;
        if (attempts === 1) throw new TypeError('Failed to fetch');
        return { body: { success: true, message: 'Transaction successful', data: { checkpoint: '5.1' } } };
      },
    });
    renderTransfer();
    await verifyRavi();
    await userEvent.type(screen.getByLabelText('Amount (₹)'), '10');
    await userEvent.type(screen.getByLabelText('Reference'), 'rent');
    await confirmAndPay();
    expect(await screen.findByText('Transfer failed. Please check your connection and try again.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
    expect(await screen.findByText('Transaction successful')).toBeTruthy();
    const keys = calls
      .filter((call) => call.path === '/api/transactions/transfer-funds')
      .map((call) => call.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
  });

  it('maps PIN_NOT_SET', async () => {
    fakeApi({
      '/api/transactions/verify-account': verified,
      '/api/transactions/transfer-funds': () => ({
        status: 400,
        body: { success: false, code: 'PIN_NOT_SET', message: 'x' },
      }),
    });
    renderTransfer();
    await verifyRavi();
    await userEvent.type(screen.getByLabelText('Amount (₹)'), '10');
    await userEvent.type(screen.getByLabelText('Reference'), 'rent');
    await confirmAndPay();
    expect(await screen.findByText('Please set your transaction PIN first in settings.')).toBeTruthy();
  });

  it('shows the verification failure from the server', async () => {
    fakeApi({
      '/api/transactions/verify-account': () => ({
        status: 404,
        body: { success: false, message: 'Account not found' },
      }),
    });
    renderTransfer();
    await userEvent.type(screen.getByLabelText('Receiver account number'), 'nobody');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findAllByText('Account not found')).length).toBeGreaterThan(0);
  });
});

function renderDeposit() {
  renderWithApp(<DepositDialog open onOpenChange={() => undefined} user={USER} />);
}

async function fillBase(amount = '500') {
  await userEvent.type(screen.getByLabelText('Amount (₹)'), amount);
  await userEvent.type(screen.getByLabelText('Reference'), 'top up');
  await userEvent.type(screen.getByLabelText('Transaction PIN'), '1234');
}

describe('deposit dialog', () => {
  it('says its limits under the amount, as Send says its minimum, in the same rupee format', async () => {
    fakeApi({});
    renderDeposit();
    const amount = screen.getByLabelText('Amount (₹)');
    await userEvent.type(amount, '500');
    // Still in sight while typing: a description of the field, not a placeholder.
    expect(screen.getByText('Between ₹1 and ₹1,00,000').id).toBe(amount.getAttribute('aria-describedby'));
  });

  it('bank transfer: digits-only account, upper-case IFSC, the spec messages', async () => {
    const calls = fakeApi({
      '/api/config': () => ({
        body: { success: true, message: 'ok', data: { googleSignIn: false, cardProvider: 'sandbox' } },
      }),
    });
    renderDeposit();
    await fillBase('100001');
    await userEvent.type(screen.getByLabelText('Account number'), '12ab34');
    expect((screen.getByLabelText('Account number') as HTMLInputElement).value).toBe('1234');
    await userEvent.type(screen.getByLabelText('IFSC code'), 'sbin1001234');
    expect((screen.getByLabelText('IFSC code') as HTMLInputElement).value).toBe('SBIN1001234');
    await userEvent.click(screen.getByRole('button', { name: 'Submit deposit' }));
    expect(await screen.findByText('Maximum deposit amount is ₹1,00,000')).toBeTruthy();
    expect(screen.getByText('Account number must be at least 8 digits')).toBeTruthy();
    expect(screen.getByText('Please enter a valid IFSC code')).toBeTruthy();
    expect(screen.getByText('Bank name is required')).toBeTruthy();
    expect(screen.getByText('Bank transfer and UPI requests are processed in 1-2 business days.')).toBeTruthy();
    expect(calls.filter((call) => call.path === '/api/transactions/deposit-funds')).toHaveLength(0);
  });

  it('UPI: lower-cases the id, rejects a bad one, submits a pending deposit', async () => {
    const calls = fakeApi({
      '/api/transactions/deposit-funds': () => ({
        body: { success: true, message: 'ok', data: { checkpoint: '3.1' } },
      }),
    });
    renderDeposit();
    await fillBase('0.5');
    await userEvent.click(screen.getByLabelText(/UPI/));
    await userEvent.type(screen.getByLabelText('UPI ID'), 'A@1');
    await userEvent.click(screen.getByRole('button', { name: 'Submit deposit' }));
    expect(await screen.findByText('Please enter a valid UPI ID')).toBeTruthy();
    expect(screen.getByText('Minimum deposit amount is ₹1')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('Amount (₹)'));
    await userEvent.type(screen.getByLabelText('Amount (₹)'), '250');
    await userEvent.clear(screen.getByLabelText('UPI ID'));
    await userEvent.type(screen.getByLabelText('UPI ID'), 'Asha@OKBank');
    await userEvent.click(screen.getByRole('button', { name: 'Submit deposit' }));
    expect(await screen.findByText('Deposit request submitted successfully!')).toBeTruthy();
    const deposit = calls.find((call) => call.path === '/api/transactions/deposit-funds');
    expect(deposit?.body).toMatchObject({
      userId: USER._id,
      amount: 250,
      paymentMethod: 'upi',
      status: 'pending',
      type: 'deposit',
      upiDetails: { upiId: 'asha@okbank' },
      reference: 'top up',
      transactionPin: '1234',
    });
    expect(deposit?.headers['idempotency-key']).toBeTruthy();
  });

  it('card (sandbox): Pay ₹{amount} stays disabled until every rule passes, then sends pm_sandbox_<last4>', async () => {
    const calls = fakeApi({
      '/api/config': () => ({
        body: { success: true, message: 'ok', data: { googleSignIn: false, cardProvider: 'sandbox' } },
      }),
      '/api/transactions/deposit-funds': () => ({
        body: { success: true, message: 'Deposit successful!', data: { checkpoint: '9.1' } },
      }),
    });
    renderDeposit();
    await userEvent.click(screen.getByLabelText(/Card/));
    await fillBase('500');
    const pay = () => screen.getByRole('button', { name: 'Pay ₹500' }) as HTMLButtonElement;
    expect(pay().disabled).toBe(true);
    await userEvent.type(screen.getByLabelText('Card number'), '4242424242424241');
    await userEvent.type(screen.getByLabelText('Expiry (MM/YY)'), '1299');
    await userEvent.type(screen.getByLabelText('CVC'), '123');
    expect(pay().disabled).toBe(true);
    await userEvent.clear(screen.getByLabelText('Card number'));
    await userEvent.type(screen.getByLabelText('Card number'), '4242424242424242');
    await waitFor(() => expect(pay().disabled).toBe(false));
    await userEvent.click(pay());
    expect(await screen.findByText('Card deposit successful! Your account has been credited.')).toBeTruthy();
    const deposit = calls.find((call) => call.path === '/api/transactions/deposit-funds');
    expect(deposit?.body).toMatchObject({
      paymentMethod: 'card',
      paymentMethodId: 'pm_sandbox_4242',
      status: 'success',
      amount: 500,
    });
  });

  it('card over the limit: Pay says why it is disabled instead of a silent "Pay ₹0"', async () => {
    fakeApi({
      '/api/config': () => ({
        body: { success: true, message: 'ok', data: { googleSignIn: false, cardProvider: 'sandbox' } },
      }),
    });
    renderDeposit();
    await userEvent.click(screen.getByLabelText(/Card/));
    await fillBase('150000');
    const pay = screen.getByRole('button', { name: 'Pay' }) as HTMLButtonElement;
    expect(pay.disabled).toBe(true);
    const reason = document.getElementById(pay.getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toBe('Maximum deposit amount is ₹1,00,000');
    // The amount field says it too, as it is typed (a card deposit has no submit step).
    const amount = screen.getByLabelText('Amount (₹)');
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('button', { name: /Pay ₹0/ })).toBeNull();
  });

  it('card: shows the server decline message', async () => {
    fakeApi({
      '/api/transactions/deposit-funds': () => ({
        status: 402,
        body: { success: false, message: 'Insufficient funds on your card.' },
      }),
    });
    renderDeposit();
    await userEvent.click(screen.getByLabelText(/Card/));
    await fillBase('500');
    await userEvent.type(screen.getByLabelText('Card number'), '4000000000009995');
    await userEvent.type(screen.getByLabelText('Expiry (MM/YY)'), '1299');
    await userEvent.type(screen.getByLabelText('CVC'), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Pay ₹500' }));
    expect(await screen.findByText('Insufficient funds on your card.')).toBeTruthy();
  });
});

describe('sandbox card rules', () => {
  it('builds the token from the last four digits and checks Luhn, expiry and CVC', () => {
    expect(sandboxPaymentMethodId('4000 0000 0000 0002')).toBe('pm_sandbox_0002');
    const now = new Date('2026-11-22T00:00:00Z');
    expect(cardErrors({ number: '4242 4242 4242 4242', expiry: '12/30', cvc: '123', name: 'A' }, now)).toEqual({});
    expect(cardErrors({ number: '4242 4242 4242 4241', expiry: '10/26', cvc: '1', name: ' ' }, now)).toEqual({
      number: 'Please enter a valid card number',
      expiry: 'Your card has expired',
      cvc: 'Please enter a valid CVC',
      name: 'Cardholder name is required',
    });
  });
});
