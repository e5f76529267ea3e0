/**
 * Deposit review: admins settle or fail the bank-transfer and UPI deposits waiting for them
 * (POST /api/transactions/settle-deposit and /api/transactions/fail-deposit). Admin-only like
 * every route of this folder, but kept at the paths the spec's clients call, so registered
 * beside the transactions routes (api/app.ts) and documented without the admin tag, as
 * before. The list of deposits waiting and its CSV are ./operations.ts's
 * (/api/admin/pending-deposits, read by audit/); the actions, with their audit rows and the
 * four-eyes rule above the approval threshold, are admin-actions/'.
 */
import type { FastifyInstance } from 'fastify';
import { failDepositAsAdmin, performAdminMoneyAction } from '../../../admin-actions/index.ts';
import { failDepositSchema, settleDepositSchema } from '../../../contracts/admin.ts';
import { depositReviewResultSchema } from '../../../contracts/transactions.ts';
import { isLedgerRejection } from '../../../ledger/index.ts';
import { requireAdmin } from '../../auth/authenticate.ts';
import { routeSchema, withData } from '../../docs.ts';
import { ok } from '../../envelope.ts';
import { ApiError } from '../../errors.ts';
import { commandContext } from '../../money-context.ts';
import { REPLY_WAITS_FOR } from '../../read-after-reply.ts';
import type { ZodTypeProvider } from '../../request-validation.ts';
import type { AdminRouteDependencies } from './admin-route.ts';
import { AWAITING_APPROVAL_REPLY, awaitingApproval } from './corrections.ts';

/** A settlement's or failure's reply waits for the balances and the histories, as a payment's (api/read-after-reply.ts). */
const PAYMENT = { config: { readAfterReply: REPLY_WAITS_FOR.payment } };

type DepositReviewDependencies = Pick<AdminRouteDependencies, 'db' | 'ledger' | 'approvalThresholdPaise'>;

/** Admins settle or fail pending bank-transfer and UPI deposits. */
export function registerDepositReviewRoutes(fastify: FastifyInstance, deps: DepositReviewDependencies): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const settleDocs = routeSchema({
    summary: 'Settle a pending bank-transfer or UPI deposit (admins)',
    body: settleDepositSchema,
    replies: { 200: withData(depositReviewResultSchema, 'Settled'), 202: AWAITING_APPROVAL_REPLY },
    errors: [404, 409],
  });
  app.post(
    '/api/transactions/settle-deposit',
    { preValidation: app.requireAdmin, ...settleDocs, ...PAYMENT },
    async (request, reply) => {
      const admin = await requireAdmin(request);
      const { depositId } = request.body;
      const outcome = await performAdminMoneyAction(
        deps,
        { action: 'settle', depositId },
        commandContext(request, admin.id),
      );
      if (outcome.status === 'awaiting_approval')
        return awaitingApproval(reply, outcome.approval, deps.approvalThresholdPaise, outcome.cause);
      return ok(reply, 'Deposit settled: the wallet has been credited', { depositId, checkpoint: outcome.checkpoint });
    },
  );

  const failDocs = routeSchema({
    summary: 'Mark a pending bank-transfer or UPI deposit as failed (admins)',
    body: failDepositSchema,
    replies: { 200: withData(depositReviewResultSchema, 'Marked as failed') },
    errors: [404, 409],
  });
  app.post(
    '/api/transactions/fail-deposit',
    { preValidation: app.requireAdmin, ...failDocs, ...PAYMENT },
    async (request, reply) => {
      const admin = await requireAdmin(request);
      const { depositId, reason } = request.body;
      try {
        const result = await failDepositAsAdmin(deps, { depositId, reason }, commandContext(request, admin.id));
        return ok(reply, 'Deposit marked as failed', { depositId, checkpoint: result.checkpoint });
      } catch (error) {
        if (isLedgerRejection(error) && error.code === 'invalid_reference')
          throw new ApiError('validation_failed', 'A reason of at least 3 characters is required');
        throw error;
      }
    },
  );
}
