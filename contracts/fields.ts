/**
 * Field rules shared by several forms, with the spec's messages (section 5). Each helper
 * builds a zod schema; the server validates request bodies with it and the web forms show
 * its messages under their fields, so a rule is written once.
 */
import { z } from 'zod';
import { ungroupRupees } from './amount-input.ts';
import { paiseFromRupees } from './money.ts';

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function requiredText(requiredMessage: string, max = 200) {
  return z
    .string({ error: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .max(max, `Must be at most ${max} characters`);
}

export function email(messages: { required: string; invalid: string }) {
  return z
    .string({ error: messages.required })
    .trim()
    .min(1, messages.required)
    .max(254, messages.invalid)
    .regex(EMAIL_PATTERN, messages.invalid)
    .transform((value) => value.toLowerCase());
}

export function reference(options: { max: number }) {
  return z
    .string({ error: 'Reference is required' })
    .trim()
    .min(1, 'Reference is required')
    .min(3, 'Reference must be at least 3 characters')
    .max(options.max, `Reference must be at most ${options.max} characters`);
}

export interface AmountRules {
  required: string;
  invalid: string;
  min?: { paise: bigint; message: string };
  max?: { paise: bigint; message: string };
}

/**
 * An amount in rupees (JSON number, or the text of a form input, which may be grouped en-IN
 * as the amount fields show it: "1,00,000.50") parsed exactly to paise.
 */
export function amount(rules: AmountRules) {
  return z.unknown().transform((value, ctx): bigint => {
    if (value === undefined || value === null || value === '') {
      ctx.addIssue({ code: 'custom', message: rules.required });
      return z.NEVER;
    }
    const paise = paiseFromRupees(typeof value === 'string' ? ungroupRupees(value) : value);
    if (paise === null || paise <= 0n) {
      ctx.addIssue({ code: 'custom', message: rules.invalid });
      return z.NEVER;
    }
    if (rules.min && paise < rules.min.paise) {
      ctx.addIssue({ code: 'custom', message: rules.min.message });
      return z.NEVER;
    }
    if (rules.max && paise > rules.max.paise) {
      ctx.addIssue({ code: 'custom', message: rules.max.message });
      return z.NEVER;
    }
    return paise;
  });
}

/** A transaction PIN typed by the user: digits only, 4 to 6. */
export function pin(messages: { required: string; tooShort: string; tooLong: string; digitsOnly: string }) {
  return z
    .string({ error: messages.required })
    .min(1, messages.required)
    .max(6, messages.tooLong)
    .regex(/^\d*$/, messages.digitsOnly)
    .min(4, messages.tooShort);
}

export const transactionPin = pin({
  required: 'Transaction PIN is required',
  tooShort: 'PIN must be at least 4 digits',
  tooLong: 'PIN must not exceed 6 digits',
  digitsOnly: 'PIN must contain only numbers',
});

/** Account numbers are user ids: letters, digits, underscore, hyphen. */
export const accountNumber = z
  .string({ error: 'Account number is required' })
  .trim()
  .min(1, 'Account number is required')
  .max(64, 'Account not found')
  .regex(/^[A-Za-z0-9_-]+$/, 'Account not found');

/** The first message per field, as forms show them. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.map(String).join('.') || '_form';
    errors[field] ??= issue.message;
  }
  return errors;
}

/** The first message of all, for a toast or an API reply. */
export function firstMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Invalid request';
}
