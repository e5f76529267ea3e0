/**
 * One payment's own page (GET /api/transactions/:transactionId and its receipt.pdf): the
 * route's parameter and the reply, shared by the API and the web app. Only the signed-in
 * user's own history entries are ever found; anyone else's id answers 404 like an unknown one.
 */
import { z } from 'zod';
import { disputeRecordSchema } from './disputes.ts';
import { boundedText, documentLanguage } from './fields.ts';

/** A history row's `_id`: a transaction id, or `<id>-reversal` for the row of its reversal. */
export const TRANSACTION_ID_PATTERN = /^[A-Za-z0-9_:-]+$/;

export const transactionParamsSchema = z.object({
  transactionId: boundedText({ max: 100 }).min(1).regex(TRANSACTION_ID_PATTERN, 'Invalid transaction id'),
});

const party = z.object({
  id: z.string().meta({ description: 'Account number, or a funding account (`funding:upi`) for a deposit' }),
  name: z.string(),
});

const isoTime = z.string().meta({ description: 'ISO 8601, UTC' });

export const transactionDetailSchema = z.object({
  _id: z.string(),
  /** The original movement's id (the same as `_id` except on a reversal's row). */
  transactionId: z.string(),
  type: z.enum(['deposit', 'debit', 'credit']),
  method: z.string(),
  from: party,
  to: party,
  amount: z.number().meta({ description: 'Rupees (two decimals)' }),
  reference: z.string(),
  status: z.enum(['success', 'pending', 'failed']),
  failureReason: z.string().nullable(),
  createdAt: isoTime,
  /** When the movement was reversed (on the original's page); null when it was not. */
  reversedAt: isoTime.nullable(),
  /** The newest dispute of this payment (its payer's, or against the payee); null when none. */
  dispute: disputeRecordSchema.nullable(),
  /** Whether the signed-in user may raise a dispute now: the payer of a completed payment with none open. */
  canDispute: z.boolean(),
});
export type TransactionDetail = z.output<typeof transactionDetailSchema>;

/** The receipt's query: its language, the reader's choice in the web app (English by default). */
export const receiptQuerySchema = z.object({ lang: documentLanguage });

/** The receipt's file name, the same in the reply's header and the web app's save dialog. */
export function receiptFileName(transactionId: string): string {
  return `receipt-${transactionId}.pdf`;
}
