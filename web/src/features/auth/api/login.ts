/**
 * POST /api/users/login: e-mail, password, rememberMe -> the session token in `data`.
 */
import { useMutation } from '@tanstack/react-query';
import type { LoginPayload } from '../../../../../contracts/users.ts';
import { apiRequest, type ApiReply } from '../../../lib/api-client.ts';

export function login(payload: LoginPayload): Promise<ApiReply<string>> {
  return apiRequest<string>('/api/users/login', { method: 'POST', body: payload });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
