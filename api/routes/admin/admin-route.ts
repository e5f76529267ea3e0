/**
 * What every /api/admin route shares: its options (admin-only - `app.requireAdmin`: 401
 * without a session, 403 for users - and documented under the admin tag from its zod
 * contracts: input and replies; the bearer security is added by api/docs.ts's onRoute hook)
 * and its dependencies.
 */
import type { Kysely } from 'kysely';
import type { Ledger } from '../../../ledger/index.ts';
import type { JobBoss } from '../../../platform/jobs.ts';
import { routeSchema, type RouteDocs } from '../../docs.ts';
import type { ZodRoutes } from '../../request-validation.ts';

export const ADMIN_TAG = 'admin';

export interface AdminRouteDependencies {
  db: Kysely<unknown>;
  ledger: Ledger;
  /** Replays are queued as jobs for the workers. */
  boss: JobBoss;
  /** Read-your-writes for the statement: waits (bounded) until the statements reflect a checkpoint. */
  awaitStatements?: (checkpoint: string) => Promise<unknown>;
  /** Settlements and reversals above this amount wait for a second admin. */
  approvalThresholdPaise: bigint;
}

/** An admin route's options: admin-only, checked and documented under the admin tag by its zod contracts. */
export function adminRoute<const Docs extends RouteDocs>(app: ZodRoutes, docs: Docs) {
  return { preValidation: app.requireAdmin, ...routeSchema({ ...docs, tags: [ADMIN_TAG] }) };
}
