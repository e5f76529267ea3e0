/**
 * GET /api/admin/pending-deposits.csv (admin): every deposit waiting for review with what its
 * payer entered, to match against the collection account's bank statement; saved as a file.
 */
import { downloadSignedInFile } from '../../../lib/download-file.ts';

export const PENDING_DEPOSITS_CSV_PATH = '/api/admin/pending-deposits.csv';

export function downloadPendingDepositsCsv(): Promise<void> {
  return downloadSignedInFile(PENDING_DEPOSITS_CSV_PATH, 'pending-deposits.csv');
}
