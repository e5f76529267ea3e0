/**
 * Finding a payee the way people already pay (issue 43): by account number, by registered
 * mobile number or by handle (`asha@wallet`), and the user's recent payees. One rule per
 * shape, shared by the server's routes and the web forms. A lookup answers what the account
 * lookup answers (a name) plus a masked form of what the payer typed: never the account id of
 * a mobile number or a handle, so the lookups enumerate no more than verify-account does.
 */
import { z } from 'zod';
import { MAX_PAYMENT_REFERENCE_LENGTH } from '../ledger/limits.ts';
import { boundedText, reference, transactionPin } from './fields.ts';
import { transferAmount } from './transactions.ts';

/** Every handle ends in this: people type `asha` or `asha@wallet` and mean the same. */
export const HANDLE_DOMAIN = 'wallet';

/** The part before `@wallet`: 3 to 20 of a-z, 0-9, dot and underscore, not starting with a dot or underscore. */
const HANDLE_NAME = /^[a-z0-9][a-z0-9._]{2,19}$/;

export const HANDLE_RULE_MESSAGE =
  'A handle is 3 to 20 letters, digits, dots or underscores, starting with a letter or digit';

/** `Asha`, `asha@wallet` or ` ASHA@Wallet ` -> `asha@wallet`; anything else is refused with the rule. */
export const handleSchema = boundedText({
  required: 'Handle is required',
  max: 40,
  tooLong: HANDLE_RULE_MESSAGE,
  trim: true,
})
  .min(1, 'Handle is required')
  .toLowerCase()
  .transform((value, ctx) => {
    const name = value.endsWith(`@${HANDLE_DOMAIN}`) ? value.slice(0, -HANDLE_DOMAIN.length - 1) : value;
    if (!HANDLE_NAME.test(name)) {
      ctx.addIssue({ code: 'custom', message: HANDLE_RULE_MESSAGE });
      return z.NEVER;
    }
    return `${name}@${HANDLE_DOMAIN}`;
  });

export const chooseHandleSchema = z.object({ handle: handleSchema });
export type ChooseHandlePayload = z.input<typeof chooseHandleSchema>;

/**
 * A mobile number as typed: an optional +, then digits, spaces, dashes or brackets with 10 to
 * 13 digits in all (a national number, or one with 91 or 0 before it). Its key is the last ten
 * digits, as the index on the registered contact numbers (migrations/0006) keys them.
 */
const MOBILE_TEXT = /^\+?[0-9\s\-()]{10,20}$/;
const MOBILE_KEY_DIGITS = 10;

export function mobileKey(text: string): string | null {
  if (!MOBILE_TEXT.test(text)) return null;
  const digits = text.replace(/\D/g, '');
  if (digits.length < MOBILE_KEY_DIGITS || digits.length > 13) return null;
  return digits.slice(-MOBILE_KEY_DIGITS);
}

const ACCOUNT_NUMBER = /^[A-Za-z0-9_-]{1,64}$/;

export type PayeeKind = 'account' | 'mobile' | 'handle';
export type PayeeKey = { kind: PayeeKind; key: string };

export const PAYEE_REQUIRED_MESSAGE = 'Enter an account number, mobile number or handle';
export const PAYEE_INVALID_MESSAGE = 'Enter an account number, a 10-digit mobile number or a handle like asha@wallet';

/**
 * What the payer typed, read once: with `@` a handle, a 10-13 digit number a mobile number
 * (an account number is never one: ids are 36 characters), anything else an account number.
 */
export const payeeSchema = boundedText({
  required: PAYEE_REQUIRED_MESSAGE,
  max: 64,
  tooLong: PAYEE_INVALID_MESSAGE,
  trim: true,
})
  .min(1, PAYEE_REQUIRED_MESSAGE)
  .transform((text, ctx): PayeeKey => {
    if (text.includes('@')) {
      const handle = handleSchema.safeParse(text);
      if (handle.success) return { kind: 'handle', key: handle.data };
    } else {
      const mobile = mobileKey(text);
      if (mobile !== null) return { kind: 'mobile', key: mobile };
      if (ACCOUNT_NUMBER.test(text)) return { kind: 'account', key: text };
    }
    ctx.addIssue({ code: 'custom', message: PAYEE_INVALID_MESSAGE });
    return z.NEVER;
  });

export const findPayeeSchema = z.object({ payee: payeeSchema });
export type FindPayeePayload = z.input<typeof findPayeeSchema>;

/** "XXXXXX3210": what the payer typed, all but the last four hidden. */
export function maskedTail(text: string): string {
  return `XXXXXX${text.slice(-4)}`;
}

/** How the confirmation names the payee besides the name: the handle itself, or a masked number. */
export function shownPayee(payee: PayeeKey): string {
  return payee.kind === 'handle' ? payee.key : maskedTail(payee.key);
}

/** A found payee: a name and what the payer typed (masked), nothing else of theirs. */
export const foundPayeeSchema = z.object({
  name: z.string(),
  kind: z.enum(['account', 'mobile', 'handle']),
  shown: z.string().meta({ description: 'The handle, or the number typed, masked but for its last four' }),
  isOwnAccount: z.boolean(),
});
export type FoundPayee = z.output<typeof foundPayeeSchema>;

/**
 * A payment to a payee found by mobile number or handle (or account number): the server
 * resolves `payee` to an account; the payer is the session's user, as on transfer-funds.
 */
export const payeeTransferSchema = z.object({
  payee: payeeSchema,
  amount: transferAmount,
  reference: reference({ max: MAX_PAYMENT_REFERENCE_LENGTH }),
  transactionPin,
});
export type PayeeTransferPayload = z.input<typeof payeeTransferSchema>;

/** The most recent payees a user is shown. */
export const RECENT_PAYEES_LIMIT = 5;

export const recentPayeeSchema = z.object({
  accountNumber: z.string(),
  name: z.string(),
  lastPaidAt: z.string().meta({ description: 'ISO 8601, UTC' }),
});
export type RecentPayee = z.output<typeof recentPayeeSchema>;
export const recentPayeesSchema = z.array(recentPayeeSchema);
