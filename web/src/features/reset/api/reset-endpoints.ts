/**
 * The one-time-code reset endpoints (spec section 7), four per secret: send, verify,
 * reset, resend. The password and PIN flows have the same shapes, so each endpoint is a
 * row of this table and one fetcher posts it; no token is needed. Bodies are the input
 * types of contracts/users.ts' schemas, which the server checks them with.
 */
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  resetEmailSchema,
  resetPasswordSchema,
  resetPinSchema,
  verifyOtpSchema,
} from '../../../../../contracts/users.ts';
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

type EmailBody = z.input<typeof resetEmailSchema>;
type VerifyBody = z.input<typeof verifyOtpSchema>;

/** The body of each endpoint. */
export interface ResetBodies {
  password: { send: EmailBody; resend: EmailBody; verify: VerifyBody; reset: z.input<typeof resetPasswordSchema> };
  pin: { send: EmailBody; resend: EmailBody; verify: VerifyBody; reset: z.input<typeof resetPinSchema> };
}

export function postReset<Kind extends SecretKind, Step extends ResetStep>(
  kind: Kind,
  step: Step,
  body: ResetBodies[Kind][Step],
): Promise<ApiReply<unknown>> {
  return apiRequest(RESET_PATHS[kind][step], { method: 'POST', body });
}

export function useResetCall<Kind extends SecretKind, Step extends ResetStep>(kind: Kind, step: Step) {
  return useMutation({ mutationFn: (body: ResetBodies[Kind][Step]) => postReset(kind, step, body) });
}
