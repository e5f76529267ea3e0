/**
 * Saving a file the API serves only to a signed-in user: a plain link cannot send the bearer
 * token, so the file is fetched with it and handed to the browser from a blob URL.
 */
import { NetworkError } from './api-client.ts';
import { readToken } from './token.ts';

/** Downloads `url` with the session's token and saves it as `fileName`; throws with the server's message on refusal. */
export async function downloadSignedInFile(url: string, fileName: string): Promise<void> {
  const token = readToken();
  let response: Response;
  try {
    response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {}, credentials: 'include' });
  } catch (error) {
    throw new NetworkError(error instanceof Error ? error.message : 'Network error');
  }
  if (!response.ok) {
    const payload = (await response.json().catch(() => ({}))) as { message?: string };
    throw new Error(payload.message || 'Failed to download the statement');
  }
  const blobUrl = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = blobUrl;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has been handled, so the download has started.
  window.setTimeout(() => URL.revokeObjectURL(blobUrl), 1_000);
}
