/**
 * Money forms and payloads (spec sections 3, 5 and 7): transfer, deposit, money requests,
 * history queries. Amounts arrive as rupees and leave these schemas as paise (bigint). The
 * limits are the ledger's (ledger/limits.ts), written once.
 */
import { z } from 'zod';
import { depositInstructionsSchema } from './deposit-instructions.ts';
import {
  MAX_DEPOSIT_PAISE,
  MAX_PAYMENT_REFERENCE_LENGTH,
  MAX_REFERENCE_LENGTH,
  MAX_REQUEST_PAISE,
  MIN_DEPOSIT_PAISE,
  MIN_TRANSFER_PAISE,
} from '../ledger/limits.ts';
import {
  accountNumber,
  amount,
  boundedText,
  checkpointToken,
  reference,
  requiredText,
  transactionPin,
} from './fields.ts';
import { formatRupees, rupeesFromPaise } from './money.ts';
import { historyDateFilter } from './statements.ts';

/** The limits as the forms show them: rupees for amount inputs, characters for references. */
export const FORM_LIMITS = {
  transferMinRupees: rupeesFromPaise(MIN_TRANSFER_PAISE),
  depositMinRupees: rupeesFromPaise(MIN_DEPOSIT_PAISE),
  depositMaxRupees: rupeesFromPaise(MAX_DEPOSIT_PAISE),
  requestMaxRupees: rupeesFromPaise(MAX_REQUEST_PAISE),
  paymentReferenceMaxLength: MAX_PAYMENT_REFERENCE_LENGTH,
  requestReferenceMaxLength: MAX_REFERENCE_LENGTH,
} as const;

/** "₹1,00,000": a limit in a message. */
function limitText(paise: bigint): string {
  return formatRupees(rupeesFromPaise(paise), { whole: true });
}

/**
 * The self-payment refusals, as the forms say them before asking the server. The server's
 * rule is the ledger's (`self_transfer`); the routes answer it with these words.
 */
export const SELF_TRANSFER_MESSAGE = 'Cannot transfer to your own account';
export const SELF_REQUEST_MESSAGE = 'Cannot send request to yourself';

// ---- commands -----------------------------------------------------------------------

/** A command's retry key: a repeated request with the same key applies once (7 days). */
export const idempotencyKeySchema = boundedText({ max: 200, trim: true })
  .min(1)
  .regex(/^[\x21-\x7e]+$/);

/** The headers a money command reads besides the session's. */
export const commandHeadersSchema = z.looseObject({
  'idempotency-key': idempotencyKeySchema
    .optional()
    .meta({ description: 'Retry key (1-200 visible characters): a repeat with the same key applies once' }),
});

// ---- transfer -----------------------------------------------------------------------

export const transferAmount = amount({
  required: 'Amount is required',
  invalid: 'Please enter a valid amount',
  min: { paise: MIN_TRANSFER_PAISE, message: `Minimum transfer amount is ${limitText(MIN_TRANSFER_PAISE)}` },
});

/**
 * Transfer payload. `sender`, `type` and `status` may arrive from the spec's client: the
 * sender must be the signed-in user (checked by the route), the other two are ignored.
 */
export const transferSchema = z.object({
  receiver: accountNumber,
  amount: transferAmount,
  reference: reference({ max: MAX_PAYMENT_REFERENCE_LENGTH }),
  transactionPin,
  sender: boundedText({ max: 64 }).optional(),
});
export type TransferPayload = z.input<typeof transferSchema>;

export const verifyAccountSchema = z.object({ receiver: accountNumber });

// ---- deposit ------------------------------------------------------------------------

export const DEPOSIT_METHODS = ['bank_transfer', 'upi', 'card'] as const;

export const depositAmount = amount({
  required: 'Amount is required',
  invalid: 'Please enter a valid amount',
  min: { paise: MIN_DEPOSIT_PAISE, message: `Minimum deposit amount is ${limitText(MIN_DEPOSIT_PAISE)}` },
  max: { paise: MAX_DEPOSIT_PAISE, message: `Maximum deposit amount is ${limitText(MAX_DEPOSIT_PAISE)}` },
});

export const IFSC_PATTERN = /^[A-Z]{4}0[A-Z0-9]{6}$/;
export const UPI_PATTERN = /^[a-z0-9._-]{2,256}@[a-z]{2,64}$/;

export const bankDetailsSchema = z.object({
  accountNumber: boundedText({
    required: 'Account number is required',
    max: 20,
    tooLong: 'Account number must be at most 20 digits',
    trim: true,
  })
    .min(1, 'Account number is required')
    .regex(/^\d*$/, 'Account number must contain only digits')
    .min(8, 'Account number must be at least 8 digits'),
  // An IFSC code is 11 characters: a longer one fails the pattern with the same message.
  ifscCode: boundedText({
    required: 'IFSC code is required',
    max: 11,
    tooLong: 'Please enter a valid IFSC code',
    trim: true,
  })
    .min(1, 'IFSC code is required')
    .toUpperCase()
    .regex(IFSC_PATTERN, 'Please enter a valid IFSC code'),
  bankName: requiredText('Bank name is required', 100),
});

export const upiDetailsSchema = z.object({
  upiId: boundedText({ required: 'UPI ID is required', max: 321, tooLong: 'Please enter a valid UPI ID', trim: true })
    .min(1, 'UPI ID is required')
    .toLowerCase()
    .regex(UPI_PATTERN, 'Please enter a valid UPI ID'),
});

const depositBase = {
  amount: depositAmount,
  reference: reference({ max: MAX_PAYMENT_REFERENCE_LENGTH }),
  transactionPin,
};

/**
 * Deposit payload: a union on the method, so only the chosen method's details are
 * validated (the spec's client sends both detail objects every time). `userId`, `status`,
 * `type` and `timestamp` are not read: the wallet is the signed-in user's and the server
 * decides every status.
 */
export const depositSchema = z.discriminatedUnion(
  'paymentMethod',
  [
    z.object({ ...depositBase, paymentMethod: z.literal('bank_transfer'), bankDetails: bankDetailsSchema }),
    z.object({ ...depositBase, paymentMethod: z.literal('upi'), upiDetails: upiDetailsSchema }),
    z.object({
      ...depositBase,
      paymentMethod: z.literal('card'),
      paymentMethodId: boundedText({ required: 'Card details are required', max: 255, trim: true }).min(
        1,
        'Card details are required',
      ),
    }),
  ],
  { error: 'Please choose a payment method: bank_transfer, upi or card' },
);
export type DepositPayload = z.input<typeof depositSchema>;

// ---- money requests -----------------------------------------------------------------

export const requestAmount = amount({
  required: 'Please enter a valid amount greater than 0',
  invalid: 'Please enter a valid amount greater than 0',
  max: { paise: MAX_REQUEST_PAISE, message: `Amount cannot exceed ${limitText(MAX_REQUEST_PAISE)}` },
});

export const sendRequestSchema = z.object({
  receiver: accountNumber,
  amount: requestAmount,
  reference: reference({ max: MAX_REFERENCE_LENGTH }),
});
export type SendRequestPayload = z.input<typeof sendRequestSchema>;

export const updateRequestStatusSchema = z.object({
  requestId: boundedText({ required: 'requestId is required', max: 64, trim: true }).min(1, 'requestId is required'),
  status: z.enum(['accepted', 'rejected'], { error: "Status must be 'accepted' or 'rejected'" }),
  transactionPin: transactionPin.optional(),
});

// ---- history ------------------------------------------------------------------------

export const HISTORY_PAGE_SIZE = 10;
export const HISTORY_TYPES = ['credit', 'debit', 'deposit'] as const;

export const historyQuerySchema = z
  .object({
    search: boundedText({ max: 200, trim: true }).optional().meta({
      description:
        "Found anywhere in the reference or the other party's name, as the amount when it is one ('4,000.50', '₹4000.5'), or at the start or end of the transaction id; any case",
    }),
    type: z.enum([...HISTORY_TYPES, 'all']).optional(),
    page: z.coerce.number().int().min(1).max(100_000).optional(),
    pageSize: z.coerce.number().int().min(1).max(100).optional(),
    /** Read-your-writes: wait until the history has projected this checkpoint. */
    minPosition: checkpointToken.optional(),
    /** Only transactions on these India Standard Time days (YYYY-MM-DD, both included); either may be left out. */
    ...historyDateFilter,
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    message: 'The start date must not be after the end date',
  });

// ---- replies ------------------------------------------------------------------------

const rupees = z.number().meta({ description: 'Rupees (two decimals)' });
const isoTime = z.string().meta({ description: 'ISO 8601, UTC' });
const checkpoint = z
  .string()
  .meta({ description: 'Read-your-writes token `<tx_id>.<position>`: pass as minPosition to a later read' });

/** A transaction as the spec's client renders it, plus fields for our own app. */
export const transactionRecordSchema = z.object({
  _id: z.string(),
  sender: z.string().meta({ description: 'Account number (a plain id string, never an object)' }),
  receiver: z.string(),
  amount: rupees,
  reference: z.string(),
  status: z.enum(['success', 'pending', 'failed']),
  type: z.enum(['deposit', 'debit', 'credit']),
  method: z.string().nullable(),
  counterpartyId: z.string().nullable(),
  counterpartyName: z.string().nullable(),
  /** Why a failed deposit failed, as the admin said it; absent otherwise. */
  failureReason: z.string().optional(),
  createdAt: isoTime,
});
export type TransactionRecord = z.output<typeof transactionRecordSchema>;

const requestParty = z.object({ _id: z.string(), firstName: z.string(), lastName: z.string() });

export const moneyRequestRecordSchema = z.object({
  _id: z.string(),
  amount: rupees,
  reference: z.string(),
  status: z.enum(['pending', 'accepted', 'rejected']),
  createdAt: isoTime,
  /** When the payer accepted or rejected it; null while it waits (beyond the spec: its list showed only the asking date). */
  decidedAt: isoTime.nullable(),
  sender: requestParty.meta({ description: 'Who asked for the money' }),
  receiver: requestParty.meta({ description: 'Who is asked to pay' }),
});
export type MoneyRequestRecord = z.output<typeof moneyRequestRecordSchema>;

/** Who owns an account number, before paying or asking it. */
export const verifiedAccountSchema = z.object({
  name: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  accountNumber: z.string(),
  bankName: z.string(),
  isOwnAccount: z.boolean(),
});

export const transferResultSchema = z.object({
  transactionId: z.string(),
  _id: z.string(),
  sender: z.string(),
  receiver: z.string(),
  amount: rupees,
  reference: z.string(),
  status: z.literal('success'),
  checkpoint,
  replayed: z.boolean().meta({ description: 'True when an Idempotency-Key repeated an earlier transfer' }),
});

/** A bank-transfer or UPI deposit waiting for review, or a card deposit credited at once. */
export const depositResultSchema = z.object({
  transactionId: z.string(),
  status: z.enum(['pending', 'success']),
  checkpoint,
  /** Bank transfer and UPI: where to pay, and what to quote. */
  instructions: depositInstructionsSchema.optional(),
});

/** A card deposit the browser must finish (3-D Secure); the provider's webhook settles it. */
export const cardActionResultSchema = z.object({
  transactionId: z.string(),
  status: z.literal('requires_action'),
  clientSecret: z.string().nullable(),
  nextAction: z.object({ type: z.string(), redirectUrl: z.string().nullable() }).nullable(),
  checkpoint,
});

/** The history: a plain list without `page` (the spec's client), pages with `page`. */
export const historyReplySchema = z.union([
  z.array(transactionRecordSchema),
  z.object({
    items: z.array(transactionRecordSchema),
    total: z.number().int(),
    totalExact: z.boolean().meta({ description: 'False when a search matched more than it counts' }),
    page: z.number().int(),
    pageSize: z.number().int(),
  }),
]);

export const depositReviewResultSchema = z.object({ depositId: z.string(), checkpoint });

export const requestSentSchema = z.object({
  requestId: z.string(),
  _id: z.string(),
  status: z.literal('pending'),
  checkpoint,
});

export const requestAnsweredSchema = z.object({
  requestId: z.string(),
  status: z.enum(['accepted', 'rejected']),
  checkpoint,
});

/**
 * Where the card provider sends its webhooks: the address configured at the provider, and the
 * one route the rate limiter never counts (api/auth/rate-limit.ts).
 */
export const CARD_WEBHOOK_PATH = '/api/payments/card/webhook';

/** What the card provider's webhook did; every result is answered 2xx. */
export const cardWebhookResultSchema = z.object({
  received: z.literal(true),
  result: z.enum([
    'credited',
    'failure_recorded',
    'already_processed',
    'left_pending',
    'nothing_to_do',
    'payment_mismatch',
  ]),
});

/**
 * The card provider's webhook body, as documented: a Stripe event. The route checks the
 * Stripe-Signature over the raw bytes and then reads only payment_intent.succeeded and
 * payment_intent.payment_failed events of wallet deposits (providers/card/webhook.ts).
 */
export const cardWebhookEventSchema = z.looseObject({
  id: z.string(),
  type: z.string().meta({ example: 'payment_intent.succeeded' }),
  data: z.looseObject({ object: z.record(z.string(), z.unknown()) }),
});
export const cardWebhookHeadersSchema = z.looseObject({
  'stripe-signature': z.string().meta({ description: "The provider's signature over the raw body" }),
});
