/**
 * POST /api/users/logout: ends the session on the server (every token issued so far stops
 * working), so a copied token dies with the sign-out. Best effort: the browser forgets its
 * token whatever the answer.
 */
import { apiRequest, NetworkError } from '../../../lib/api-client.ts';

export async function logout(): Promise<void> {
  try {
    await apiRequest('/api/users/logout', { method: 'POST' });
  } catch (error) {
    if (!(error instanceof NetworkError)) throw error;
  }
}
