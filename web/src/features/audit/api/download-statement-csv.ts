/**
 * GET /api/admin/accounts/:accountId/statement.csv (admin): the statement as CSV. A plain
 * link cannot send the bearer token, so the file is fetched with it and saved from a blob URL.
 */
import { NetworkError } from '../../../lib/api-client.ts';
import { readToken } from '../../../lib/token.ts';
import { statementQueryString } from './get-statement.ts';
import type { StatementFilters } from './types.ts';

export function statementCsvUrl(accountId: string, filters: StatementFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(statementQueryString(filters))) if (value) params.set(key, value);
  const text = params.toString();
  return `/api/admin/accounts/${encodeURIComponent(accountId)}/statement.csv${text ? `?${text}` : ''}`;
}

/** Downloads the CSV and hands it to the browser as a file; throws with the server's message on refusal. */
export async function downloadStatementCsv(accountId: string, filters: StatementFilters): Promise<void> {
  const token = readToken();
  let response: Response;
  try {
    response = await fetch(statementCsvUrl(accountId, filters), {
      headers: token ? { authorization: `Bearer ${token}` } : {},
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
  link.download = `statement-${accountId}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has been handled, so the download has started.
  window.setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
