/**
 * GET /api/transactions/statement.csv and statement.pdf: the signed-in user's own statement
 * for a period, saved as a file (lib/download-file.ts); the PDF worded in the language the
 * reader reads the app in.
 */
import type { DocumentLanguage } from '../../../../../contracts/fields.ts';
import { currentLanguage } from '../../../i18n/i18n.ts';
import { downloadSignedInFile } from '../../../lib/download-file.ts';

export type StatementFormat = 'csv' | 'pdf';

export interface StatementPeriod {
  from: string;
  to: string;
}

export function statementUrl(format: StatementFormat, period: StatementPeriod, language: DocumentLanguage): string {
  const query = new URLSearchParams({ from: period.from, to: period.to });
  if (format === 'pdf') query.set('lang', language);
  return `/api/transactions/statement.${format}?${query.toString()}`;
}

export function statementFileName(format: StatementFormat, period: StatementPeriod): string {
  return `statement-${period.from}-to-${period.to}.${format}`;
}

/** Downloads the statement and saves it; throws with the server's message on refusal. */
export function downloadStatement(format: StatementFormat, period: StatementPeriod): Promise<void> {
  return downloadSignedInFile(statementUrl(format, period, currentLanguage()), statementFileName(format, period));
}
