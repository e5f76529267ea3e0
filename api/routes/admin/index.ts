/**
 * /api/admin/*: the admin and operator tools, by area - corrections and approvals, account
 * audit, the ledger explorer, operations (audit trail, trial balance, verify, pending
 * deposits, projections, replays), the identity check's reveal. Every route is admin-only. The routes are HTTP glue: the
 * schemas are contracts/admin.ts, the reads and actions audit/.
 */
import type { FastifyInstance } from 'fastify';
import { registerAccountRoutes } from './accounts.ts';
import type { AdminRouteDependencies } from './admin-route.ts';
import type { ZodTypeProvider } from '../../request-validation.ts';
import { registerCorrectionRoutes } from './corrections.ts';
import { registerDisputeRoutes } from './disputes.ts';
import { registerExplorerRoutes } from './explorer.ts';
import { registerIdentityRoutes } from './identity.ts';
import { registerOperationsRoutes } from './operations.ts';

export type { AdminRouteDependencies } from './admin-route.ts';
export { AWAITING_APPROVAL_REPLY, awaitingApproval } from './corrections.ts';

export async function registerAdminRoutes(app: FastifyInstance, deps: AdminRouteDependencies): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  registerCorrectionRoutes(routes, deps);
  registerDisputeRoutes(routes, deps);
  registerAccountRoutes(routes, deps);
  registerExplorerRoutes(routes, deps);
  registerOperationsRoutes(routes, deps);
  registerIdentityRoutes(routes, deps);
}
