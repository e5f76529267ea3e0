/**
 * The one-time-code reset endpoints (spec section 7), four per secret: send, verify,
 * reset, resend. The password and PIN flows have the same shapes, so each endpoint is a
 * row of this table and one fetcher posts it; no token is needed.
 */
import { useMutation } from '@tanstack/react-query';
import { apiRequest, type ApiReply } from '../../../lib/api-client.ts';

export type SecretKind = 'password' | 'pin';

export const RESET_PATHS = {
  password: {
    send: '/api/users/send-password-reset-otp',
    verify: '/api/users/verify-password-reset-otp',
    reset: '/api/users/reset-password',
    resend: '/api/users/resend-password-reset-otp',
  },
  pin: {
    send: '/api/users/send-pin-reset-otp',
    verify: '/api/users/verify-pin-reset-otp',
    reset: '/api/users/reset-transaction-pin',
    resend: '/api/users/resend-pin-reset-otp',
  },
} as const satisfies Record<SecretKind, Record<'send' | 'verify' | 'reset' | 'resend', string>>;

export type ResetStep = keyof (typeof RESET_PATHS)['password'];

export function postReset(kind: SecretKind, step: ResetStep, body: Record<string, string>): Promise<ApiReply<unknown>> {
  return apiRequest(RESET_PATHS[kind][step], { method: 'POST', body });
}

export function useResetCall(kind: SecretKind, step: ResetStep) {
  return useMutation({ mutationFn: (body: Record<string, string>) => postReset(kind, step, body) });
}
