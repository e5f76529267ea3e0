/**
 * A payment's own page: GET /api/transactions/:transactionId (both parties, amount, note, time,
 * reference, status, and its dispute), GET /api/transactions/:transactionId/receipt.pdf, and
 * POST /api/transactions/:transactionId/dispute (its payer disputes it, admin-actions/disputes.ts).
 * Only the signed-in user's own history is searched, so another user's transaction id answers
 * the same 404 as an id that does not exist (no probing whose payments exist).
 */
import type { FastifyInstance } from 'fastify';
import { raiseDispute, readDispute, readDisputeOfPayment } from '../../admin-actions/index.ts';
import { disputeRecordSchema, raiseDisputeSchema, type DisputeRecord } from '../../contracts/disputes.ts';
import { rupeesFromPaise } from '../../contracts/money.ts';
import {
  receiptFileName,
  receiptQuerySchema,
  transactionDetailSchema,
  transactionParamsSchema,
  type TransactionDetail,
} from '../../contracts/transaction-detail.ts';
import { commandHeadersSchema } from '../../contracts/transactions.ts';
import { readHistoryEntry, type HistoryEntry } from '../../projections/index.ts';
import { receiptPdf } from '../../user-statements/index.ts';
import { requireUser } from '../auth/authenticate.ts';
import { fileReply, routeSchema, withData } from '../docs.ts';
import { ok } from '../envelope.ts';
import { ApiError } from '../errors.ts';
import { commandContext, type MoneyDependencies } from '../money-context.ts';
import type { ZodRoutes, ZodTypeProvider } from '../request-validation.ts';

type DetailDependencies = Pick<MoneyDependencies, 'db' | 'reads' | 'ledger'>;
type OwnEntry = (userId: string, entryId: string) => Promise<HistoryEntry>;

const NOT_FOUND_MESSAGE = 'Transaction not found';

/** The movements a payer may dispute: money they sent to another wallet (not deposits, not reversals). */
const DISPUTABLE_METHODS: Readonly<Record<string, 'transfer' | 'request'>> = {
  transfer: 'transfer',
  request: 'request',
};

export function registerTransactionDetailRoutes(server: FastifyInstance, deps: DetailDependencies): void {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const ownEntry: OwnEntry = async (userId, entryId) => {
    const entry = await deps.reads.read('history', (reads) => readHistoryEntry(reads, userId, entryId));
    if (!entry) throw new ApiError('not_found', NOT_FOUND_MESSAGE);
    return entry;
  };
  registerDetail(app, deps, ownEntry);
  registerReceipt(app, ownEntry);
  registerRaiseDispute(app, deps, ownEntry);
}

function registerDetail(app: ZodRoutes, deps: DetailDependencies, ownEntry: OwnEntry): void {
  app.get(
    '/api/transactions/:transactionId',
    {
      preValidation: app.authenticate,
      ...routeSchema({
        tags: ['transactions'],
        summary: 'One transaction of your history',
        description:
          'Both parties, amount, note, time, reference, status and its dispute. Only your own history: others are 404.',
        params: transactionParamsSchema,
        replies: { 200: withData(transactionDetailSchema, 'The transaction') },
        errors: [404],
      }),
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { transactionId } = request.params;
      const entry = await ownEntry(user.id, transactionId);
      const dispute = await readDisputeOfPayment(deps.db, user.id, entry.row.transaction_id);
      return ok(reply, 'Transaction fetched successfully', toTransactionDetail(entry, transactionId, dispute));
    },
  );
}

function registerReceipt(app: ZodRoutes, ownEntry: OwnEntry): void {
  app.get(
    '/api/transactions/:transactionId/receipt.pdf',
    {
      preValidation: app.authenticate,
      ...routeSchema({
        tags: ['transactions'],
        summary: "A transaction's receipt as PDF",
        description: 'The same facts as the transaction page. Only your own history: others are 404.',
        params: transactionParamsSchema,
        querystring: receiptQuerySchema,
        replies: { 200: fileReply('application/pdf', 'The receipt as a PDF document') },
        errors: [404],
      }),
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { transactionId } = request.params;
      const pdf = await receiptPdf({
        entry: await ownEntry(user.id, transactionId),
        entryId: transactionId,
        language: request.query.lang,
      });
      reply.header('content-type', 'application/pdf');
      reply.header('content-disposition', `attachment; filename="${receiptFileName(transactionId)}"`);
      reply.header('cache-control', 'no-store');
      return reply.send(pdf);
    },
  );
}

function registerRaiseDispute(app: ZodRoutes, deps: DetailDependencies, ownEntry: OwnEntry): void {
  app.post(
    '/api/transactions/:transactionId/dispute',
    {
      preValidation: app.authenticate,
      ...routeSchema({
        tags: ['transactions'],
        summary: 'Dispute a payment you made',
        description:
          'The payer of a completed transfer or paid money request says it was wrong, with a reason (3-500 characters). One open dispute per payment. Accepts an Idempotency-Key.',
        params: transactionParamsSchema,
        body: raiseDisputeSchema,
        headers: commandHeadersSchema,
        replies: { 201: withData(disputeRecordSchema, 'The dispute, open') },
        errors: [403, 404, 409],
      }),
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { row } = await ownEntry(user.id, request.params.transactionId);
      const kind = DISPUTABLE_METHODS[row.method];
      if (row.type !== 'debit' || !kind)
        throw new ApiError('not_disputable', 'Only the payer of a completed payment can dispute it');
      const raised = await raiseDispute(
        deps,
        { kind, transactionId: row.transaction_id, reason: request.body.reason },
        commandContext(request, user.id),
      );
      const dispute = await readDispute(deps.db, raised.disputeId);
      if (!dispute) throw new ApiError('not_found', NOT_FOUND_MESSAGE);
      return ok(reply, 'Dispute raised: an admin will review it', dispute, 201);
    },
  );
}

function toTransactionDetail(
  entry: HistoryEntry,
  entryId: string,
  dispute: DisputeRecord | undefined,
): TransactionDetail {
  const { row } = entry;
  const own = { id: row.account_id, name: entry.ownName };
  const other = { id: row.counterparty_id, name: row.counterparty_name };
  const disputeOpen = dispute?.status === 'open' || dispute?.status === 'awaiting_approval';
  return {
    _id: entryId,
    transactionId: row.transaction_id,
    type: row.type,
    method: row.method,
    // A debit is the owner's payment; a credit, a deposit and a reversal's refund come to them.
    from: row.type === 'debit' ? own : other,
    to: row.type === 'debit' ? other : own,
    amount: rupeesFromPaise(row.amount_paise),
    reference: row.reference,
    status: row.status,
    failureReason: row.failure_reason,
    createdAt: row.created_at.toISOString(),
    reversedAt: entry.reversedAt?.toISOString() ?? null,
    dispute: dispute ?? null,
    canDispute: row.type === 'debit' && Boolean(DISPUTABLE_METHODS[row.method]) && !entry.reversedAt && !disputeOpen,
  };
}
