/**
 * The admins' disputes queue: GET /api/admin/disputes (?status=), GET /api/admin/disputes/:id,
 * and resolving one - POST .../:id/reverse (the payment's reversal, through the four-eyes rules
 * of every reversal: done now, or 202 filed for a second admin, whose approval at
 * /api/admin/approvals/:id/approve runs it and resolves the dispute) or POST .../:id/reject
 * (closed with a reason, nothing moves). Both parties' histories are the explorer's account
 * routes (/api/admin/accounts/:id/...).
 */
import { z } from 'zod';
import { listDisputes, readDispute, rejectDispute, reverseDisputedPayment } from '../../../admin-actions/index.ts';
import {
  disputeListQuerySchema,
  disputeParamsSchema,
  disputeRecordSchema,
  disputeReversalSchema,
  resolveDisputeSchema,
} from '../../../contracts/disputes.ts';
import { requireAdmin } from '../../auth/authenticate.ts';
import { withData } from '../../docs.ts';
import { ok } from '../../envelope.ts';
import { ApiError } from '../../errors.ts';
import { commandContext } from '../../money-context.ts';
import { adminRoute, type AdminRouteDependencies } from './admin-route.ts';
import type { ZodRoutes } from '../../request-validation.ts';

type DisputeDependencies = Pick<AdminRouteDependencies, 'db' | 'ledger' | 'approvalThresholdPaise'>;

/** The queue's page size when the query names none. */
const DEFAULT_DISPUTES = 50;

export function registerDisputeRoutes(app: ZodRoutes, deps: DisputeDependencies): void {
  registerDisputeReads(app, deps);
  registerDisputeDecisions(app, deps);
}

async function disputeOrNotFound(deps: DisputeDependencies, disputeId: string) {
  const dispute = await readDispute(deps.db, disputeId);
  if (!dispute) throw new ApiError('dispute_not_found', 'Dispute not found');
  return dispute;
}

function registerDisputeReads(app: ZodRoutes, deps: DisputeDependencies): void {
  app.get(
    '/api/admin/disputes',
    adminRoute(app, {
      summary: "Customers' disputes of payments",
      description: 'Newest first; ?status=open|awaiting_approval|reversed|rejected|all, ?limit (at most 200).',
      querystring: disputeListQuerySchema,
      replies: { 200: withData(z.array(disputeRecordSchema), 'The disputes') },
    }),
    async (request, reply) => {
      await requireAdmin(request);
      const { status, limit } = request.query;
      const disputes = await listDisputes(deps.db, {
        status: status === 'all' ? undefined : status,
        limit: limit ?? DEFAULT_DISPUTES,
      });
      return ok(reply, 'Disputes fetched', disputes);
    },
  );

  app.get(
    '/api/admin/disputes/:disputeId',
    adminRoute(app, {
      summary: 'One dispute',
      params: disputeParamsSchema,
      replies: { 200: withData(disputeRecordSchema, 'The dispute') },
      errors: [404],
    }),
    async (request, reply) => {
      await requireAdmin(request);
      return ok(reply, 'Dispute fetched', await disputeOrNotFound(deps, request.params.disputeId));
    },
  );
}

function registerDisputeDecisions(app: ZodRoutes, deps: DisputeDependencies): void {
  app.post(
    '/api/admin/disputes/:disputeId/reverse',
    adminRoute(app, {
      summary: 'Uphold a dispute: reverse the payment',
      description:
        "The payment's reversal with this reason, by the rules of every reversal: above the approval threshold (or the 24-hour totals) it waits for a second admin (202).",
      params: disputeParamsSchema,
      body: resolveDisputeSchema,
      replies: {
        200: withData(disputeReversalSchema, 'Reversed; the dispute is resolved'),
        202: withData(disputeReversalSchema, "Filed for a second admin's approval"),
      },
      errors: [403, 404, 409],
    }),
    async (request, reply) => {
      const admin = await requireAdmin(request);
      const { disputeId } = request.params;
      const ctx = commandContext(request, admin.id);
      const outcome = await reverseDisputedPayment(deps, disputeId, request.body.reason, ctx);
      const dispute = await disputeOrNotFound(deps, disputeId);
      if (outcome.status === 'awaiting_approval')
        return ok(
          reply,
          "Awaiting a second admin's approval: the reversal runs when another admin approves it",
          { status: 'awaiting_approval', dispute, checkpoint: null },
          202,
        );
      return ok(reply, 'Payment reversed: the dispute is resolved', {
        status: 'done',
        dispute,
        checkpoint: outcome.checkpoint,
      });
    },
  );

  app.post(
    '/api/admin/disputes/:disputeId/reject',
    adminRoute(app, {
      summary: 'Reject a dispute with a reason',
      description: 'Nothing moves; the customer sees the reason.',
      params: disputeParamsSchema,
      body: resolveDisputeSchema,
      replies: { 200: withData(disputeRecordSchema, 'The rejected dispute') },
      errors: [403, 404, 409],
    }),
    async (request, reply) => {
      const admin = await requireAdmin(request);
      const { disputeId } = request.params;
      await rejectDispute(deps, disputeId, request.body.reason, commandContext(request, admin.id));
      return ok(reply, 'Dispute rejected', await disputeOrNotFound(deps, disputeId));
    },
  );
}
