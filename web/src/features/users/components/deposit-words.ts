/**
 * How a pending deposit's row names things, shared by its table and its detail dialog:
 * whose deposit, and the payer's details in one line.
 */
import i18next from 'i18next';
import type { PendingDeposit } from '../api/get-pending-deposits.ts';

export function whose(row: PendingDeposit): string {
  return row.ownerName ?? row.walletId;
}

/** "UPI asha@okbank", or "A/c 0012… · HDFC0001234 · HDFC Bank": what the bank statement will show. */
export function payerLine(row: PendingDeposit): string {
  const { payer } = row;
  if (payer.upiId) return i18next.t('topUp.payerUpi', { upiId: payer.upiId });
  if (payer.accountNumber)
    return i18next.t('topUp.payerBank', {
      accountNumber: payer.accountNumber,
      ifsc: payer.ifscCode ?? '-',
      bank: payer.bankName ?? '-',
    });
  return i18next.t('topUp.payerUnknown');
}
