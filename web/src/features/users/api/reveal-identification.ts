/**
 * POST /api/admin/users/:userId/identification/reveal (admin): a user's full ID number. Every
 * user record masks it; each reveal is written to the audit trail by the server, so the
 * number is asked for only when the admin presses Reveal, and never cached.
 */
import { useMutation } from '@tanstack/react-query';
import type { RevealedIdentification } from '../../../../../contracts/identity-check.ts';
import { apiData } from '../../../lib/api-client.ts';

export function revealIdentification(userId: string): Promise<RevealedIdentification> {
  return apiData<RevealedIdentification>(`/api/admin/users/${encodeURIComponent(userId)}/identification/reveal`, {
    method: 'POST',
    body: {},
    fallbackMessage: 'The number could not be revealed',
  });
}

export function useRevealIdentification() {
  return useMutation({ mutationFn: revealIdentification });
}
