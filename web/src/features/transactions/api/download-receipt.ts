/**
 * GET /api/transactions/:transactionId/receipt.pdf: the payment's receipt, saved as a file
 * (lib/download-file.ts: the request carries the session's token), worded in the language the
 * reader reads the app in.
 */
import { receiptFileName } from '../../../../../contracts/transaction-detail.ts';
import { currentLanguage } from '../../../i18n/i18n.ts';
import { downloadSignedInFile } from '../../../lib/download-file.ts';

export function downloadReceipt(transactionId: string): Promise<void> {
  const lang = encodeURIComponent(currentLanguage());
  return downloadSignedInFile(
    `/api/transactions/${encodeURIComponent(transactionId)}/receipt.pdf?lang=${lang}`,
    receiptFileName(transactionId),
  );
}
