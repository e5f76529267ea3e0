/**
 * Disputes of payments (issue 43 item 3), on the wire: the payer raises one from the
 * payment's page (POST /api/transactions/:transactionId/dispute); admins list, read and
 * resolve them (/api/admin/disputes: reverse the payment through the four-eyes rules, or
 * reject the dispute with a reason). Shared by the API and the web app's forms.
 */
import { z } from 'zod';
import { reasonSchema } from './admin.ts';
import { boundedText } from './fields.ts';

/** Whose side a payment's dispute is on: only these movements can be disputed (by their payer). */
export const DISPUTE_KINDS = ['transfer', 'request'] as const;

/**
 * Where a dispute stands: open; open with a reversal filed for a second admin
 * (`awaiting_approval`); closed by a reversal of the payment; closed by an admin's rejection.
 */
export const DISPUTE_STATUSES = ['open', 'awaiting_approval', 'reversed', 'rejected'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

/** The customer's words: why the payment was wrong (3 to 500 characters, as a reversal's reason). */
export const raiseDisputeSchema = z.object({ reason: reasonSchema });
export type RaiseDisputePayload = z.input<typeof raiseDisputeSchema>;

/** An admin's resolution: the reason recorded with the reversal or the rejection. */
export const resolveDisputeSchema = z.object({ reason: reasonSchema });
export type ResolveDisputePayload = z.input<typeof resolveDisputeSchema>;

export const disputeParamsSchema = z.object({
  disputeId: boundedText({ max: 64 })
    .min(1)
    .regex(/^[A-Za-z0-9_-]+$/, 'Invalid dispute id'),
});

export const disputeListQuerySchema = z.object({
  status: z.enum([...DISPUTE_STATUSES, 'all']).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});

const party = z.object({ id: z.string(), name: z.string() });
const isoTime = z.string().meta({ description: 'ISO 8601, UTC' });

export const disputeRecordSchema = z.object({
  id: z.string(),
  kind: z.enum(DISPUTE_KINDS),
  transactionId: z.string(),
  status: z.enum(DISPUTE_STATUSES),
  reason: z.string(),
  amount: z.number().meta({ description: 'Rupees (two decimals)' }),
  payer: party,
  payee: party,
  raisedAt: isoTime,
  decidedBy: z.string().nullable(),
  decidedByName: z.string().nullable(),
  decidedAt: isoTime.nullable(),
  decisionReason: z.string().nullable(),
  /** The reversal filed for a second admin, while it waits. */
  approvalId: z.string().nullable(),
});
export type DisputeRecord = z.output<typeof disputeRecordSchema>;

/** An admin's reversal of a disputed payment: done at once, or filed for a second admin. */
export const disputeReversalSchema = z.object({
  status: z.enum(['done', 'awaiting_approval']),
  dispute: disputeRecordSchema,
  checkpoint: z.string().nullable(),
});
