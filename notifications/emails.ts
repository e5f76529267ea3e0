/**
 * The e-mails the product sends, as job payloads (what is enqueued) and as rendered
 * messages (what the worker sends). Payloads hold no secret in clear: codes are sealed.
 * A mail enqueued on behalf of an HTTP request carries that request's id, which the mail
 * worker logs with the job id and the outcome (one UUID from the request to the e-mail).
 */
import { z } from 'zod';

/** The request that caused the mail; absent for jobs enqueued before request ids travelled. */
const causedBy = { requestId: z.string().max(100).optional() };

export const emailJobSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('one_time_code'),
    to: z.string(),
    purpose: z.enum(['password', 'pin']),
    sealedCode: z.string(),
    validMinutes: z.number().int().positive(),
    ...causedBy,
  }),
  z.object({ kind: z.literal('account_verified'), to: z.string(), firstName: z.string(), ...causedBy }),
]);
export type EmailJob = z.infer<typeof emailJobSchema>;

export interface RenderedEmail {
  to: string;
  subject: string;
  text: string;
}

export function renderOneTimeCode(
  to: string,
  purpose: 'password' | 'pin',
  code: string,
  validMinutes: number,
): RenderedEmail {
  const what = purpose === 'password' ? 'reset your password' : 'reset your transaction PIN';
  return {
    to,
    subject: purpose === 'password' ? 'Your password reset code' : 'Your transaction PIN reset code',
    text: [
      `Use this code to ${what}:`,
      '',
      `    ${code}`,
      '',
      `It is valid for ${validMinutes} minutes and can be tried 5 times.`,
      'If you did not ask for it, ignore this e-mail: nothing changes without the code.',
    ].join('\n'),
  };
}

export function renderAccountVerified(to: string, firstName: string, publicUrl: string): RenderedEmail {
  return {
    to,
    subject: 'Your wallet account is verified',
    text: [
      `Hello ${firstName},`,
      '',
      'Your account has been verified. You can now sign in:',
      `${publicUrl.replace(/(?<!\/)\/+$/, '')}/login`,
    ].join('\n'),
  };
}
