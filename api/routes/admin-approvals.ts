/**
 * /api/admin/approvals: money actions of one admin above the approval threshold, waiting for
 * a second admin (api/admin/money-actions.ts). List them, approve one (it runs as the
 * approver's action), or reject it. Admin-only like every /api/admin route.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { approvalListQuerySchema, approvalParamsSchema, approvalRejectBodySchema, type ApprovalRecord } from '../../contracts/admin.ts';
import { formatRupees, rupeesFromPaise } from '../../contracts/money.ts';
import type { Ledger } from '../../ledger/index.ts';
import { approveRequest, listApprovalRequests, rejectRequest, type AdminMoneyDependencies } from '../../audit/index.ts';
import { requireAdmin } from '../auth/authenticate.ts';
import { ok } from '../envelope.ts';
import { commandContext } from '../money-context.ts';
import { zodDocs, type ZodDocParts } from '../docs.ts';

export interface ApprovalRouteDependencies {
  db: Kysely<unknown>;
  ledger: Ledger;
  approvalThresholdPaise: bigint;
}

export function adminMoney(deps: ApprovalRouteDependencies): AdminMoneyDependencies {
  return { db: deps.db, ledger: deps.ledger, approvalThresholdPaise: deps.approvalThresholdPaise };
}

/** 202: filed, not done. The message says why, so the admin knows whom to ask. */
export function awaitingApproval(reply: FastifyReply, approval: ApprovalRecord, thresholdPaise: bigint) {
  return ok(reply, `Awaiting a second admin's approval: amounts above ${formatRupees(rupeesFromPaise(thresholdPaise))} need two admins`, { status: 'awaiting_approval', approval }, 202);
}

export function registerApprovalRoutes(app: FastifyInstance, deps: ApprovalRouteDependencies): void {
  const adminOnly = { preHandler: app.requireAdmin };
  const doc = (summary: string, description: string, parts: ZodDocParts = {}) => {
    const documented = zodDocs(parts);
    return { ...documented, schema: { ...documented.schema, tags: ['admin'], summary, description, security: [{ bearerAuth: [] }] } };
  };

  app.get('/api/admin/approvals', { ...adminOnly, ...doc('Money actions waiting for a second admin', 'Settlements and reversals above the approval threshold, newest first; ?state=pending|approved|rejected.', { querystring: approvalListQuerySchema }) }, async (request, reply) => {
    await requireAdmin(request);
    const query = approvalListQuerySchema.parse(request.query ?? {});
    return ok(reply, 'Approval requests fetched', await listApprovalRequests(deps.db, query));
  });

  app.post('/api/admin/approvals/:id/approve', { ...adminOnly, ...doc('Approve (and run) another admin\'s request', 'Runs the settlement or reversal as the approving admin; the admin who filed it cannot approve it.', { params: approvalParamsSchema }) }, async (request, reply) => {
    const admin = await requireAdmin(request);
    const { id } = approvalParamsSchema.parse(request.params);
    const { approval, done } = await approveRequest(adminMoney(deps), id, commandContext(request, admin.id));
    return ok(reply, approval.action === 'settle' ? 'Approved: the deposit has been settled' : 'Approved: the transaction has been reversed', { approval, checkpoint: done.checkpoint });
  });

  app.post('/api/admin/approvals/:id/reject', { ...adminOnly, ...doc('Reject (or withdraw) a request', 'Nothing moves; any admin may reject, the requester included.', { params: approvalParamsSchema, body: approvalRejectBodySchema }) }, async (request, reply) => {
    const admin = await requireAdmin(request);
    const { id } = approvalParamsSchema.parse(request.params);
    const { reason } = approvalRejectBodySchema.parse(request.body ?? {});
    return ok(reply, 'Request rejected', await rejectRequest(deps.db, id, admin.id, reason || null));
  });
}
