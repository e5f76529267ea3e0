/**
 * After paying, focus goes to the result (issue 43 item 4): the transfer's success message as
 * the dialog closes (not back to the SEND button), and a bank/UPI deposit's "where to pay"
 * heading, which replaces the submitted form.
 */
import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState, type ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { fakeApi, renderWithApp, USER } from '../../../test/harness.tsx';
import { DepositDialog } from './DepositDialog.tsx';
import { TransferDialog } from './TransferDialog.tsx';

/** The page's part: the button that opens the dialog, as on Transactions. */
function TransferPage(): ReactElement {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        SEND
      </button>
      <TransferDialog open={open} onOpenChange={setOpen} userId={USER._id} balance={1000} />
    </>
  );
}

describe('focus after paying', () => {
  it('a transfer: the dialog closes onto its success message, which holds focus', async () => {
    fakeApi({
      '/api/transactions/verify-account': () => ({
        body: {
          success: true,
          message: 'ok',
          data: { name: 'Ravi Kumar', accountNumber: 'user-ravi-2', bankName: 'Rupee Wallet' },
        },
      }),
      '/api/transactions/transfer-funds': () => ({
        body: { success: true, message: 'Transfer completed successfully!', data: { checkpoint: '9.1' } },
      }),
    });
    renderWithApp(<TransferPage />);
    await userEvent.click(screen.getByRole('button', { name: 'SEND' }));
    await userEvent.type(await screen.findByLabelText('Receiver account number'), 'user-ravi-2');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByText('Ravi Kumar');
    await userEvent.type(screen.getByLabelText('Amount (₹)'), '25');
    await userEvent.type(screen.getByLabelText('Reference'), 'lunch');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    await userEvent.type(await screen.findByLabelText('Transaction PIN'), '1234');
    await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => {
      const focused = document.activeElement;
      expect(focused?.getAttribute('data-testid')).toBe('toast');
      expect(focused?.textContent).toContain('Transfer completed successfully!');
    });
    // Not handed back to the button that opened the dialog a moment later.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(document.activeElement?.textContent).toContain('Transfer completed successfully!');
  });

  it('a UPI deposit: the form gives way to where to pay, and focus is on its heading', async () => {
    fakeApi({
      '/api/transactions/deposit-funds': () => ({
        body: {
          success: true,
          message: 'ok',
          data: {
            checkpoint: '3.1',
            instructions: {
              accountName: 'Rupee Wallet Collections',
              accountNumber: '123456789012',
              ifsc: 'SBIN0001234',
              upiId: 'rupeewallet@sbi',
              amount: 250,
              reference: 'top up',
              upiTransactionRef: 'abc',
              upiLink: 'upi://pay?pa=rupeewallet%40sbi&am=250.00',
              upiQr: 'data:image/png;base64,AAAA',
            },
          },
        },
      }),
    });
    renderWithApp(<DepositDialog open onOpenChange={() => undefined} user={USER} />);
    await userEvent.type(screen.getByLabelText('Amount (₹)'), '250');
    await userEvent.type(screen.getByLabelText('Reference'), 'top up');
    await userEvent.type(screen.getByLabelText('Transaction PIN'), '1234');
    await userEvent.click(screen.getByLabelText(/UPI/));
    await userEvent.type(screen.getByLabelText('UPI ID'), 'asha@okbank');
    await userEvent.click(screen.getByRole('button', { name: 'Submit deposit' }));
    const heading = await screen.findByRole('heading', { name: /250/ });
    await waitFor(() => expect(document.activeElement).toBe(heading));
  });
});
