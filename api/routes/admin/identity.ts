/**
 * The identity check's one admin route: the full ID number of a user, behind an explicit
 * reveal (issue 41 item 2). Every user record masks the number; this route answers it whole
 * and writes the reveal to the audit trail in the same transaction (identity/identification.ts).
 * A POST, because each call changes something (the trail) and must never be cached or prefetched.
 */
import { revealedIdentificationSchema, revealParamsSchema } from '../../../contracts/identity-check.ts';
import { revealIdentification } from '../../../identity/index.ts';
import { requireAdmin } from '../../auth/authenticate.ts';
import { withData } from '../../docs.ts';
import { ok } from '../../envelope.ts';
import type { ZodRoutes } from '../../request-validation.ts';
import { adminRoute, type AdminRouteDependencies } from './admin-route.ts';

export function registerIdentityRoutes(app: ZodRoutes, deps: Pick<AdminRouteDependencies, 'db'>): void {
  app.post(
    '/api/admin/users/:userId/identification/reveal',
    adminRoute(app, {
      summary: "Reveal a user's full ID number (recorded in the audit trail)",
      description:
        'Every user record masks the ID number but for its last four characters; this answers it whole and records the reveal (action `reveal_identification`) with the admin and the time.',
      params: revealParamsSchema,
      replies: { 200: withData(revealedIdentificationSchema, 'The full ID number') },
      errors: [404],
    }),
    async (request, reply) => {
      const admin = await requireAdmin(request);
      const revealed = await revealIdentification(deps.db, { actorId: admin.id, userId: request.params.userId });
      reply.header('cache-control', 'no-store');
      return ok(reply, 'Identification revealed', revealed);
    },
  );
}
