/**
 * GET /api/transactions/statement.csv and statement.pdf: the signed-in user's own statement
 * for a period, saved as a file. A plain link cannot send the bearer token, so the file is
 * fetched with it and handed to the browser from a blob URL (as the admin's CSV export does).
 */
import { NetworkError } from '../../../lib/api-client.ts';
import { readToken } from '../../../lib/token.ts';

export type StatementFormat = 'csv' | 'pdf';

export interface StatementPeriod {
  from: string;
  to: string;
}

export function statementUrl(format: StatementFormat, period: StatementPeriod): string {
  const query = new URLSearchParams({ from: period.from, to: period.to });
  return `/api/transactions/statement.${format}?${query.toString()}`;
}

export function statementFileName(format: StatementFormat, period: StatementPeriod): string {
  return `statement-${period.from}-to-${period.to}.${format}`;
}

/** Downloads the statement and saves it; throws with the server's message on refusal. */
export async function downloadStatement(format: StatementFormat, period: StatementPeriod): Promise<void> {
  const token = readToken();
  let response: Response;
  try {
    response = await fetch(statementUrl(format, period), {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      credentials: 'include',
    });
  } catch (error) {
    throw new NetworkError(error instanceof Error ? error.message : 'Network error');
  }
  if (!response.ok) {
    const payload = (await response.json().catch(() => ({}))) as { message?: string };
    throw new Error(payload.message || 'Failed to download the statement');
  }
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = statementFileName(format, period);
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has been handled, so the download has started.
  window.setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
