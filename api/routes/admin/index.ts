/**
 * /api/admin/*: the admin and operator tools, by area - corrections and approvals, account
 * audit, the ledger explorer, operations (audit trail, trial balance, verify, pending
 * deposits, projections, replays), the identity check's reveal; and the deposit review
 * (deposits.ts), whose settle/fail keep their /api/transactions paths and are registered by
 * api/app.ts beside the transactions routes. Every route is admin-only. The routes are HTTP
 * glue: the schemas are contracts/admin.ts, the reads audit/'s and operations/', the money
 * actions admin-actions/'.
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
export { registerDepositReviewRoutes } from './deposits.ts';

export async function registerAdminRoutes(app: FastifyInstance, deps: AdminRouteDependencies): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  registerCorrectionRoutes(routes, deps);
  registerDisputeRoutes(routes, deps);
  registerAccountRoutes(routes, deps);
  registerExplorerRoutes(routes, deps);
  registerOperationsRoutes(routes, deps);
  registerIdentityRoutes(routes, deps);
}
