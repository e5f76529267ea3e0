/**
 * GET /api/admin/accounts/:accountId/statement.csv (admin): the statement as CSV, saved as a
 * file (lib/download-file.ts).
 */
import { downloadSignedInFile } from '../../../lib/download-file.ts';
import { statementQueryString } from './get-statement.ts';
import type { StatementFilters } from './types.ts';

export function statementCsvUrl(accountId: string, filters: StatementFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(statementQueryString(filters))) if (value) params.set(key, value);
  const text = params.toString();
  return `/api/admin/accounts/${encodeURIComponent(accountId)}/statement.csv${text ? `?${text}` : ''}`;
}

/** Downloads the CSV and hands it to the browser as a file; throws with the server's message on refusal. */
export function downloadStatementCsv(accountId: string, filters: StatementFilters): Promise<void> {
  return downloadSignedInFile(statementCsvUrl(accountId, filters), `statement-${accountId}.csv`);
}
