/**
 * POST /api/users/register: the registration payload (confirmation fields are not sent).
 * Our server accepts the plain 4-6 digit PIN and validates it (contracts/users.ts).
 */
import { useMutation } from '@tanstack/react-query';
import type { RegisterPayload } from '../../../../../contracts/users.ts';
import { apiRequest, type ApiReply } from '../../../lib/api-client.ts';

export function register(payload: RegisterPayload): Promise<ApiReply<unknown>> {
  return apiRequest('/api/users/register', { method: 'POST', body: payload });
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
