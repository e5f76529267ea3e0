/**
 * A payment's own page: GET /api/transactions/:transactionId (both parties, amount, note, time,
 * reference, status) and GET /api/transactions/:transactionId/receipt.pdf. Only the signed-in
 * user's own history is searched, so another user's transaction id answers the same 404 as an
 * id that does not exist (no probing whose payments exist).
 */
import type { FastifyInstance } from 'fastify';
import { receiptPdf } from '../../audit/index.ts';
import { rupeesFromPaise } from '../../contracts/money.ts';
import {
  receiptFileName,
  transactionDetailSchema,
  transactionParamsSchema,
  type TransactionDetail,
} from '../../contracts/transaction-detail.ts';
import { readHistoryEntry, type HistoryEntry } from '../../projections/index.ts';
import { requireUser } from '../auth/authenticate.ts';
import { fileReply, routeSchema, withData } from '../docs.ts';
import { ok } from '../envelope.ts';
import { ApiError } from '../errors.ts';
import type { MoneyDependencies } from '../money-context.ts';
import type { ZodTypeProvider } from '../request-validation.ts';

type DetailDependencies = Pick<MoneyDependencies, 'reads'>;

const NOT_FOUND_MESSAGE = 'Transaction not found';

export function registerTransactionDetailRoutes(server: FastifyInstance, deps: DetailDependencies): void {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const ownEntry = async (userId: string, entryId: string): Promise<HistoryEntry> => {
    const entry = await deps.reads.read('history', (reads) => readHistoryEntry(reads, userId, entryId));
    if (!entry) throw new ApiError('not_found', NOT_FOUND_MESSAGE);
    return entry;
  };

  app.get(
    '/api/transactions/:transactionId',
    {
      preValidation: app.authenticate,
      ...routeSchema({
        tags: ['transactions'],
        summary: 'One transaction of your history',
        description: 'Both parties, amount, note, time, reference and status. Only your own history: others are 404.',
        params: transactionParamsSchema,
        replies: { 200: withData(transactionDetailSchema, 'The transaction') },
        errors: [404],
      }),
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { transactionId } = request.params;
      const entry = await ownEntry(user.id, transactionId);
      return ok(reply, 'Transaction fetched successfully', toTransactionDetail(entry, transactionId));
    },
  );

  app.get(
    '/api/transactions/:transactionId/receipt.pdf',
    {
      preValidation: app.authenticate,
      ...routeSchema({
        tags: ['transactions'],
        summary: "A transaction's receipt as PDF",
        description: 'The same facts as the transaction page. Only your own history: others are 404.',
        params: transactionParamsSchema,
        replies: { 200: fileReply('application/pdf', 'The receipt as a PDF document') },
        errors: [404],
      }),
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { transactionId } = request.params;
      const pdf = await receiptPdf({ entry: await ownEntry(user.id, transactionId), entryId: transactionId });
      reply.header('content-type', 'application/pdf');
      reply.header('content-disposition', `attachment; filename="${receiptFileName(transactionId)}"`);
      reply.header('cache-control', 'no-store');
      return reply.send(pdf);
    },
  );
}

function toTransactionDetail(entry: HistoryEntry, entryId: string): TransactionDetail {
  const { row } = entry;
  const own = { id: row.account_id, name: entry.ownName };
  const other = { id: row.counterparty_id, name: row.counterparty_name };
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
  };
}
