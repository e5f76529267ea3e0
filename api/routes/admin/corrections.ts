/**
 * Corrections and the four-eyes rule: POST /api/admin/reverse (a reversal, run by
 * admin-actions/money-actions.ts: at once, or filed for a second admin above the approval
 * threshold), and /api/admin/approvals (list the filed actions, approve one - it runs as the
 * approver's action - or reject it).
 */
import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  approveRequest,
  listApprovalRequests,
  performAdminMoneyAction,
  rejectRequest,
  type ApprovalCause,
} from '../../../admin-actions/index.ts';
import {
  approvalListQuerySchema,
  approvalParamsSchema,
  approvalRecordSchema,
  approvalRejectBodySchema,
  approvedSchema,
  awaitingApprovalSchema,
  reversalResultSchema,
  reverseSchema,
  type ApprovalRecord,
} from '../../../contracts/admin.ts';
import { formatRupees, rupeesFromPaise } from '../../../contracts/money.ts';
import { isLedgerRejection, type LedgerRejection } from '../../../ledger/index.ts';
import { readDisplayName, readViews } from '../../../projections/index.ts';
import { requireAdmin } from '../../auth/authenticate.ts';
import { withData, type ReplyDoc } from '../../docs.ts';
import { ok } from '../../envelope.ts';
import { ApiError } from '../../errors.ts';
import { commandContext } from '../../money-context.ts';
import { adminRoute, type AdminRouteDependencies } from './admin-route.ts';
import type { ZodRoutes } from '../../request-validation.ts';

type CorrectionDependencies = Pick<AdminRouteDependencies, 'db' | 'ledger' | 'approvalThresholdPaise'>;

/** 202: filed, not done. The message says why, so the admin knows whom to ask. */
export function awaitingApproval(
  reply: FastifyReply,
  approval: ApprovalRecord,
  thresholdPaise: bigint,
  cause: ApprovalCause,
) {
  return ok(reply, awaitingApprovalMessage(cause, thresholdPaise), { status: 'awaiting_approval', approval }, 202);
}

function awaitingApprovalMessage(cause: ApprovalCause, thresholdPaise: bigint): string {
  const threshold = formatRupees(rupeesFromPaise(thresholdPaise));
  const prefix = "Awaiting a second admin's approval";
  switch (cause) {
    case 'amount':
      return `${prefix}: amounts above ${threshold} need two admins`;
    case 'admin_daily_total':
      return `${prefix}: your settlements and reversals without a second admin in the last 24 hours would come to more than ${threshold}`;
    case 'wallet_daily_total':
      return `${prefix}: money put into this wallet without a second admin in the last 24 hours would come to more than ${threshold}`;
    case 'activated_by_requester':
      return `${prefix}: you activated this account, so money goes into it only with another admin`;
  }
}

/** The 202 of a money action that needs a second admin. */
export const AWAITING_APPROVAL_REPLY: ReplyDoc = withData(
  awaitingApprovalSchema,
  "Filed for a second admin's approval: an amount above the approval threshold, an admin's (or a wallet's) settlements and reversals without a second admin over 24 hours adding up above it, or money into an account the same admin activated",
);

export function registerCorrectionRoutes(app: ZodRoutes, deps: CorrectionDependencies): void {
  registerReverseRoute(app, deps);
  registerApprovalRoutes(app, deps);
}

function registerReverseRoute(app: ZodRoutes, deps: CorrectionDependencies): void {
  const description =
    'Appends TransferReversed / DepositReversed / MoneyRequestPaymentReversed on the original stream with mirrored postings; the original stays. Body: {streamId} or {transactionId, kind: transfer|deposit|request}, and reason (3-500 chars).';
  app.post(
    '/api/admin/reverse',
    adminRoute(app, {
      summary: 'Reverse a completed transfer, settled deposit or paid money request',
      description,
      body: reverseSchema,
      absentBodyIsEmpty: true,
      replies: { 200: withData(reversalResultSchema, 'Reversed'), 202: AWAITING_APPROVAL_REPLY },
      errors: [403, 404, 409, 422],
    }),
    async (request, reply) => {
      const admin = await requireAdmin(request);
      const input = request.body;
      try {
        const outcome = await performAdminMoneyAction(
          deps,
          { action: 'reverse', reversal: input },
          commandContext(request, admin.id),
        );
        if (outcome.status === 'awaiting_approval')
          return awaitingApproval(reply, outcome.approval, deps.approvalThresholdPaise, outcome.cause);
        return ok(reply, 'Transaction reversed', {
          kind: input.kind,
          transactionId: input.transactionId,
          streamId: outcome.streamId,
          position: outcome.positions[0] ?? null,
          checkpoint: outcome.checkpoint,
          replayed: outcome.replayed,
        });
      } catch (error) {
        if (isLedgerRejection(error) && error.code === 'insufficient_funds')
          throw await overdrawRefusal(deps.db, error);
        throw error;
      }
    },
  );
}

/** The ledger names the account a reversal would overdraw; the admin is told its owner's name. */
async function overdrawRefusal(db: Kysely<unknown>, error: LedgerRejection): Promise<ApiError> {
  const account = error.details.account ?? '';
  const name = (await readDisplayName(readViews(db), account)) ?? account;
  return new ApiError('insufficient_funds', `Reversal would overdraw the wallet of ${name}`);
}

function registerApprovalRoutes(app: ZodRoutes, deps: CorrectionDependencies): void {
  app.get(
    '/api/admin/approvals',
    adminRoute(app, {
      summary: 'Money actions waiting for a second admin',
      description:
        'Settlements and reversals above the approval threshold, newest first; ?state=pending|approved|rejected.',
      querystring: approvalListQuerySchema,
      replies: { 200: withData(z.array(approvalRecordSchema), 'The approval requests') },
    }),
    async (request, reply) => {
      await requireAdmin(request);
      const query = request.query;
      return ok(reply, 'Approval requests fetched', await listApprovalRequests(deps.db, query));
    },
  );

  app.post(
    '/api/admin/approvals/:id/approve',
    adminRoute(app, {
      summary: "Approve (and run) another admin's request",
      description: 'Runs the settlement or reversal as the approving admin; the admin who filed it cannot approve it.',
      params: approvalParamsSchema,
      replies: { 200: withData(approvedSchema, 'Approved and done') },
      errors: [404, 409],
    }),
    async (request, reply) => {
      const admin = await requireAdmin(request);
      const { id } = request.params;
      const { approval, done } = await approveRequest(deps, id, commandContext(request, admin.id));
      return ok(
        reply,
        approval.action === 'settle'
          ? 'Approved: the deposit has been settled'
          : 'Approved: the transaction has been reversed',
        { approval, checkpoint: done.checkpoint },
      );
    },
  );

  app.post(
    '/api/admin/approvals/:id/reject',
    adminRoute(app, {
      summary: 'Reject (or withdraw) a request',
      description: 'Nothing moves; any admin may reject, the requester included.',
      params: approvalParamsSchema,
      body: approvalRejectBodySchema,
      absentBodyIsEmpty: true,
      replies: { 200: withData(approvalRecordSchema, 'The rejected request') },
      errors: [404, 409],
    }),
    async (request, reply) => {
      const admin = await requireAdmin(request);
      const { id } = request.params;
      const { reason } = request.body;
      return ok(
        reply,
        'Request rejected',
        await rejectRequest(deps, id, commandContext(request, admin.id), reason || null),
      );
    },
  );
}
