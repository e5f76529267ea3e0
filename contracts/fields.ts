/**
 * Field rules shared by several forms, with the spec's messages (section 5). Each helper
 * builds a zod schema; the server validates request bodies with it and the web forms show
 * its messages under their fields, so a rule is written once.
 */
import { z } from 'zod';
import { ungroupRupees } from './amount-input.ts';
import { paiseFromRupees } from './money.ts';

/**
 * Something@something.something, as the spec's forms check it: a local part, `@`, and a
 * domain with a dot that is neither its first nor its last character. Written so it runs in
 * linear time (the domain's first dot is where the two halves meet, so no split is tried
 * twice); the old `/^[^\s@]+@[^\s@]+\.[^\s@]+$/` accepted exactly the same strings but tried
 * every dot of the domain as that split, quadratic on `a@` + dots + `@`
 * (contracts/bounded-text.test.ts compares the two).
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@][^\s@.]*\.[^\s@]+$/;

export interface TextBound {
  /** The most characters the value may have (after trimming, with `trim`). */
  max: number;
  /** The message for a longer value; zod's own when absent. */
  tooLong?: string;
  /** The message for a missing or non-string value; zod's own when absent. */
  required?: string;
  /** Trim first (linear: it is the one step that may read a longer value). */
  trim?: boolean;
}

/**
 * A string a client sends, bounded before any rule reads it: the one way contracts/ makes a
 * request string (contracts/bounded-text.test.ts fails on a string rule that does not start
 * with this bound). Without it a pattern, refinement or transform is handed whatever fits in
 * the 1 MiB body: zod runs a field's later checks after a plain `.max()` has failed, so one
 * quadratic pattern on a long e-mail held the event loop for seconds. This length check
 * aborts: once it fails, zod runs none of the schema's later checks, refinements or
 * transforms (`abort: true`), so the rules chained after it only ever see `max` characters.
 */
export function boundedText(bound: TextBound) {
  const text = z.string(bound.required === undefined ? undefined : { error: bound.required });
  return (bound.trim ? text.trim() : text).max(bound.max, { error: bound.tooLong, abort: true });
}

export function requiredText(requiredMessage: string, max = 200) {
  return boundedText({
    required: requiredMessage,
    max,
    tooLong: `Must be at most ${max} characters`,
    trim: true,
  }).min(1, requiredMessage);
}

/** The longest e-mail address (RFC 5321's path limit). */
export const MAX_EMAIL_LENGTH = 254;

export function email(messages: { required: string; invalid: string }) {
  return boundedText({ required: messages.required, max: MAX_EMAIL_LENGTH, tooLong: messages.invalid, trim: true })
    .min(1, messages.required)
    .regex(EMAIL_PATTERN, messages.invalid)
    .transform((value) => value.toLowerCase());
}

export function reference(options: { max: number }) {
  return boundedText({
    required: 'Reference is required',
    max: options.max,
    tooLong: `Reference must be at most ${options.max} characters`,
    trim: true,
  })
    .min(1, 'Reference is required')
    .min(3, 'Reference must be at least 3 characters');
}

export interface AmountRules {
  required: string;
  invalid: string;
  min?: { paise: bigint; message: string };
  max?: { paise: bigint; message: string };
}

/**
 * The longest amount text read: "1,00,00,00,00,00,000.00" is 23 characters, so anything
 * longer is refused before a pattern reads it (room left for spaces around a pasted amount).
 */
export const MAX_AMOUNT_TEXT_LENGTH = 64;

/**
 * Why typed amount text is refused, said under the field as it is typed (every amount form).
 * On the wire the server keeps the spec's one message for any amount that is not a number
 * above 0 (`rules.invalid`): a client written against the spec matches those words.
 */
export const AMOUNT_TEXT_MESSAGES = {
  negative: 'Amount cannot be negative',
  plusSign: 'Enter the amount without a + sign',
  characters: 'Amount can contain only digits and one decimal point',
  decimals: 'Amount can have at most 2 decimal places',
} as const;

/**
 * The reason typed amount text is not an amount, or null when its characters are fine (its
 * grouping, size and limits are the amount rule's to judge). The amount fields show it as
 * it is typed; `amount()` refuses the same text with the spec's message, so nothing is sent.
 */
export function amountTextProblem(typed: string): string | null {
  const text = typed.trim();
  if (text.startsWith('-')) return AMOUNT_TEXT_MESSAGES.negative;
  if (text.startsWith('+')) return AMOUNT_TEXT_MESSAGES.plusSign;
  if (!/^[\d,]*(?:\.\d*)?$/.test(text)) return AMOUNT_TEXT_MESSAGES.characters;
  const point = text.indexOf('.');
  if (point !== -1 && text.length - point - 1 > 2) return AMOUNT_TEXT_MESSAGES.decimals;
  return null;
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
    if (typeof value === 'string' && value.length > MAX_AMOUNT_TEXT_LENGTH) {
      ctx.addIssue({ code: 'custom', message: rules.invalid });
      return z.NEVER;
    }
    // Text the field would refuse gets the spec's message here; the field says the precise reason.
    if (typeof value === 'string' && amountTextProblem(value) !== null) {
      ctx.addIssue({ code: 'custom', message: rules.invalid });
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
  return boundedText({ required: messages.required, max: 6, tooLong: messages.tooLong })
    .min(1, messages.required)
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
export const accountNumber = boundedText({
  required: 'Account number is required',
  max: 64,
  tooLong: 'Account not found',
  trim: true,
})
  .min(1, 'Account number is required')
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

/** A checkpoint's parts are Postgres bigints (xid8 held to the same bound). */
const MAX_CHECKPOINT_PART = 2n ** 63n - 1n;

/**
 * A read-your-writes token `<tx_id>.<position>` as a read accepts it (`minPosition`): each part
 * at most 2^63-1, so a larger one is refused here (400) instead of failing in Postgres (500).
 */
export const checkpointToken = boundedText({ max: 41 })
  .regex(/^\d{1,19}\.\d{1,19}$/)
  .refine((token) => token.split('.').every((part) => BigInt(part) <= MAX_CHECKPOINT_PART), {
    message: 'Each part of a checkpoint is at most 9223372036854775807',
  });

/** The languages a document we make (a receipt, a statement) is worded in: the web app's own two. */
export const DOCUMENT_LANGUAGES = ['en', 'hi'] as const;
export type DocumentLanguage = (typeof DOCUMENT_LANGUAGES)[number];

/** A document's `lang` query field: the reader's choice in the web app, English by default. */
export const documentLanguage = z.enum(DOCUMENT_LANGUAGES).default('en').meta({
  description: "The document's words: en (English) or hi (Hindi); names, notes, amounts, times and ids stay as written",
});
