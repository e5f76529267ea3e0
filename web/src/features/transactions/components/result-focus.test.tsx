/**
 * After paying, focus goes to the result (issue 43 item 4): the transfer's success message as
 * the dialog closes (not back to the SEND button), and a bank/UPI deposit's "where to pay"
 * heading, which replaces the submitted form. In Hindi that message is the app's own text.
 */
import { act, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState, type ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { setLanguage } from '../../../i18n/i18n.ts';
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

/** Verifies Ravi, fills ₹25 for lunch, confirms and pays with 1234. */
async function payRavi(labels = ENGLISH): Promise<void> {
  await userEvent.click(screen.getByRole('button', { name: 'SEND' }));
  await userEvent.type(await screen.findByLabelText(labels.receiver), 'user-ravi-2');
  await userEvent.click(screen.getByRole('button', { name: labels.verify }));
  await screen.findByText('Ravi Kumar');
  await userEvent.type(screen.getByLabelText(labels.amount), '25');
  await userEvent.type(screen.getByLabelText(labels.reference), 'lunch');
  await userEvent.click(screen.getByRole('button', { name: labels.continue }));
  await userEvent.click(await screen.findByRole('button', { name: labels.confirm }));
  await userEvent.type(await screen.findByLabelText(labels.pin), '1234');
  await userEvent.click(screen.getByRole('button', { name: labels.pay }));
}

const ENGLISH = {
  receiver: 'Receiver account number',
  verify: 'Verify',
  amount: 'Amount (₹)',
  reference: 'Reference',
  continue: 'Continue',
  confirm: 'Confirm',
  pin: 'Transaction PIN',
  pay: 'Pay',
};

const HINDI = {
  receiver: 'पाने वाले की खाता संख्या',
  verify: 'सत्यापित करें',
  amount: 'राशि (₹)',
  reference: 'संदर्भ',
  continue: 'आगे बढ़ें',
  confirm: 'पुष्टि करें',
  pin: 'ट्रांज़ैक्शन PIN',
  pay: 'भुगतान करें',
};

function paymentApi(): void {
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
}

describe('the success message in Hindi', () => {
  it("is the app's Hindi text, not the server's English", async () => {
    paymentApi();
    act(() => setLanguage('hi'));
    renderWithApp(<TransferPage />);
    await payRavi(HINDI);
    await waitFor(() => expect(document.activeElement?.textContent).toContain('पैसे भेज दिए गए!'));
    expect(screen.queryByText('Transfer completed successfully!')).toBeNull();
  });
});

describe('focus after paying', () => {
  it('a transfer: the dialog closes onto its success message, which holds focus', async () => {
    paymentApi();
    renderWithApp(<TransferPage />);
    await payRavi();
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
