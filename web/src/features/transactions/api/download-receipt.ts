/**
 * GET /api/transactions/:transactionId/receipt.pdf: the payment's receipt, saved as a file
 * (lib/download-file.ts: the request carries the session's token).
 */
import { receiptFileName } from '../../../../../contracts/transaction-detail.ts';
import { downloadSignedInFile } from '../../../lib/download-file.ts';

export function downloadReceipt(transactionId: string): Promise<void> {
  return downloadSignedInFile(
    `/api/transactions/${encodeURIComponent(transactionId)}/receipt.pdf`,
    receiptFileName(transactionId),
  );
}
