/**
 * Identity forms and payloads (spec sections 3 and 5): sign-in, registration, password and
 * PIN reset. Form schemas include the confirmation fields; payload schemas are what the
 * server accepts on the wire.
 */
import { z } from 'zod';
import { boundedText, email, fieldErrors, pin, requiredText } from './fields.ts';
import { documentCheckedField } from './identity-check.ts';

/** The longest password anyone may set or send. */
export const MAX_PASSWORD_LENGTH = 200;
const PASSWORD_TOO_LONG = `Password must be at most ${MAX_PASSWORD_LENGTH} characters`;

/**
 * Every password a user sets (registration, reset): at least 8 characters (spec section 5).
 * The reset dialog says "required" for an empty field first; the registration form does not.
 */
function newPasswordRule(options: { sayRequiredWhenEmpty?: boolean } = {}) {
  const text = boundedText({ required: 'Password is required', max: MAX_PASSWORD_LENGTH, tooLong: PASSWORD_TOO_LONG });
  return (options.sayRequiredWhenEmpty ? text.min(1, 'Password is required') : text).min(
    8,
    'Password must be at least 8 characters',
  );
}

export const IDENTIFICATION_TYPES = [
  'Passport',
  "Driver's License",
  'National ID',
  'Aadhaar Card',
  'PAN Card',
] as const;
export type IdentificationType = (typeof IDENTIFICATION_TYPES)[number];

const loginEmail = email({ required: 'Email is required', invalid: 'Email is invalid' });

export const loginSchema = z.object({
  email: loginEmail,
  password: boundedText({ required: 'Password is required', max: MAX_PASSWORD_LENGTH })
    .min(1, 'Password is required')
    .min(6, 'Password must be at least 6 characters'),
  rememberMe: z.boolean().optional().default(false),
});
export type LoginPayload = z.input<typeof loginSchema>;

const CONTACT_PATTERN = /^\+?[0-9\s\-()]{10,}$/;
const BCRYPT_HASH = /^\$2[aby]\$(\d{2})\$[./A-Za-z0-9]{53}$/;
/** `$2b$12$` and 53 characters of salt and hash. */
const BCRYPT_HASH_LENGTH = 60;

/** The spec's figure: PINs are hashed with bcrypt cost 12. */
export const PIN_BCRYPT_COST = 12;

/**
 * A bcrypt hash of cost 12 exactly, as the spec's browser client sends the PIN at
 * registration. Exactly: the server compares it once at the first PIN check, and a client
 * choosing cost 31 would make that one compare run for days on a PIN thread.
 */
export function isAcceptableBcryptHash(value: string): boolean {
  const match = BCRYPT_HASH.exec(value);
  return match !== null && Number(match[1]) === PIN_BCRYPT_COST;
}

const registrationPin = pin({
  required: 'PIN is required',
  tooShort: 'PIN must be at least 4 digits',
  tooLong: 'PIN must be at most 6 digits',
  digitsOnly: 'PIN must contain only numbers',
});

const registrationFields = {
  firstName: requiredText('First name is required', 100),
  lastName: requiredText('Last name is required', 100),
  email: email({ required: 'Email is required', invalid: 'Email is invalid' }),
  contactNo: boundedText({
    required: 'Contact number is required',
    max: 30,
    tooLong: 'Invalid contact number',
    trim: true,
  })
    .min(1, 'Contact number is required')
    .regex(CONTACT_PATTERN, 'Invalid contact number'),
  identification: z.enum(IDENTIFICATION_TYPES, { error: 'Please select identification type' }),
  identificationNumber: requiredText('Identification number is required', 100),
  address: requiredText('Address is required', 500),
  password: newPasswordRule(),
};

/** The registration form, confirmations included (web). */
export const registerFormSchema = z
  .object({
    ...registrationFields,
    confirmPassword: boundedText({
      required: 'Please confirm your password',
      max: MAX_PASSWORD_LENGTH,
      tooLong: PASSWORD_TOO_LONG,
    }).min(1, 'Please confirm your password'),
    transactionPin: registrationPin,
    confirmPin: boundedText({ required: 'PINs do not match', max: 6, tooLong: 'PIN must be at most 6 digits' }),
  })
  .superRefine((form, ctx) => {
    if (form.confirmPassword && form.password !== form.confirmPassword) {
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'Passwords do not match' });
    }
    if (form.transactionPin !== form.confirmPin) {
      ctx.addIssue({ code: 'custom', path: ['confirmPin'], message: 'PINs do not match' });
    }
  });
export type RegisterForm = z.input<typeof registerFormSchema>;

/**
 * The registration payload (server). Only these fields are read: isAdmin, isVerified,
 * balance and anything else a client adds are dropped. The PIN is plain 4-6 digits (our
 * web app) or a bcrypt hash of cost 12 (the spec's browser client).
 */
export const registerPayloadSchema = z.object({
  ...registrationFields,
  // Not a z.union: a union reports its own message, and the form needs the PIN rule's.
  // Bounded by the longer form, the hash (60 characters); longer is too long for either.
  transactionPin: boundedText({
    required: 'PIN is required',
    max: BCRYPT_HASH_LENGTH,
    tooLong: 'PIN must be at most 6 digits',
  }).superRefine((value, ctx) => {
    if (value.startsWith('$2')) {
      if (!isAcceptableBcryptHash(value)) ctx.addIssue({ code: 'custom', message: 'PIN must be at least 4 digits' });
      return;
    }
    const plain = registrationPin.safeParse(value);
    const first = plain.success ? undefined : plain.error.issues[0];
    if (first) ctx.addIssue({ code: 'custom', message: first.message });
  }),
});
export type RegisterPayload = z.input<typeof registerPayloadSchema>;

// ---- password and PIN reset (three steps each) --------------------------------------

export const resetEmailSchema = z.object({
  email: email({ required: 'Email is required', invalid: 'Please enter a valid email address' }),
});

export const otpField = boundedText({
  required: 'OTP is required',
  max: 6,
  tooLong: 'OTP must be 6 digits',
  trim: true,
})
  .min(1, 'OTP is required')
  .regex(/^\d*$/, 'OTP must be 6 digits')
  .length(6, 'OTP must be 6 digits');

export const verifyOtpSchema = resetEmailSchema.extend({ otp: otpField });

// A reset sets the same kind of password registration does (the spec's screen said 6; a
// reset must not be the way around the registration rule).
const newPassword = newPasswordRule({ sayRequiredWhenEmpty: true });

export const resetPasswordSchema = verifyOtpSchema.extend({ newPassword });

export const resetPasswordFormSchema = z
  .object({ newPassword, confirmPassword: boundedText({ max: MAX_PASSWORD_LENGTH, tooLong: PASSWORD_TOO_LONG }) })
  .refine((form) => form.newPassword === form.confirmPassword, {
    path: ['confirmPassword'],
    message: 'Passwords do not match',
  });

const newPin = pin({
  required: 'PIN is required',
  tooShort: 'PIN must be at least 4 digits',
  tooLong: 'PIN must not exceed 6 digits',
  digitsOnly: 'PIN must contain only numbers',
});

export const resetPinSchema = verifyOtpSchema.extend({ newPin });

export const resetPinFormSchema = z
  .object({ newPin, confirmPin: boundedText({ max: 6, tooLong: 'PIN must not exceed 6 digits' }) })
  .refine((form) => form.newPin === form.confirmPin, { path: ['confirmPin'], message: 'PINs do not match' });

/** The longest PIN a PIN check reads (a PIN is 4-6 digits; longer is simply wrong). */
const MAX_CHECKED_PIN_LENGTH = 100;
const checkedPin = (required?: string) => boundedText({ required, max: MAX_CHECKED_PIN_LENGTH });

/** Changing the PIN while signed in: the current PIN, then the new one (4-6 digits). */
export const updatePinSchema = z
  .object({ currentPin: checkedPin().optional(), oldPin: checkedPin().optional(), newPin })
  .transform((body, ctx) => {
    const currentPin = body.currentPin ?? body.oldPin;
    if (currentPin === undefined || currentPin === '') {
      ctx.addIssue({ code: 'custom', path: ['currentPin'], message: 'Current PIN is required' });
      return z.NEVER;
    }
    return { currentPin, newPin: body.newPin };
  });

/** Checking the PIN while signed in (the overview page's "verify PIN"). */
export const verifyPinSchema = z.object({
  transactionPin: checkedPin('Transaction PIN is required').min(1, 'Transaction PIN is required'),
});

// ---- admin --------------------------------------------------------------------------

/** Both readings of the spec: `{selectedUser, isVerified}` and `{user, status}`. */
export const updateVerifiedStatusSchema = z
  .union(
    [
      z.object({
        selectedUser: boundedText({ max: 64 }).min(1),
        isVerified: z.boolean(),
        documentChecked: documentCheckedField,
      }),
      z.object({
        user: boundedText({ max: 64 }).min(1),
        status: z.union([z.boolean(), z.enum(['verified', 'suspended', 'active', 'unverified'])]),
        documentChecked: documentCheckedField,
      }),
    ],
    { error: 'selectedUser and isVerified are required' },
  )
  .transform((body) => ({
    ...('selectedUser' in body
      ? { userId: body.selectedUser, isVerified: body.isVerified }
      : {
          userId: body.user,
          isVerified: body.status === true || body.status === 'verified' || body.status === 'active',
        }),
    // Absent (the spec's client) stays undefined: the activation is recorded as made without one.
    documentChecked: body.documentChecked,
  }));

// ---- replies ------------------------------------------------------------------------

/** The user record of spec section 3, as every endpoint returns it. Never a hash or a code. */
export const userRecordSchema = z.object({
  _id: z.string().meta({ description: 'The user id, which is also the account number' }),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  contactNo: z.string().nullable(),
  handle: z
    .string()
    .nullable()
    .optional()
    .meta({ description: 'How others pay this user (`asha@wallet`); null until chosen' }),
  identification: z.string().nullable(),
  identificationNumber: z.string().nullable().meta({
    description: 'Masked but for the last four ("XXXX XXXX 9012"); admins reveal it through an audited route',
  }),
  address: z.string().nullable(),
  balance: z.number().meta({ description: 'Rupees (two decimals)' }),
  isAdmin: z.boolean(),
  isVerified: z.boolean(),
  authProvider: z.enum(['local', 'google']),
  pinSet: z.boolean(),
  createdAt: z.string().meta({ description: 'ISO 8601, UTC' }),
});
export type UserRecord = z.output<typeof userRecordSchema>;

/** Sign-in answers the session token itself as `data` (the spec's client stores it). */
export const sessionTokenSchema = z
  .string()
  .meta({ description: 'The session token (JWT): send it as a bearer token' });

/** A one-time code was sent (or would have been: the reply is the same for unknown e-mails). */
export const codeSentSchema = z.object({ email: z.string(), expiresIn: z.string().meta({ example: '15 minutes' }) });

/** The caller's payment QR code as an image source. */
export const qrDataUrlSchema = z.string().meta({ description: 'A PNG data URL of <PUBLIC_URL>/user/<accountNumber>' });

export { fieldErrors };
