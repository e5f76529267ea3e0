/**
 * The ledger explorer, /api/admin/events: the log filtered by stream, type, actor and time,
 * keyset-paged by position, and one event with its postings (audit/explorer.ts).
 */
import {
  eventDetailSchema,
  eventParamsSchema,
  explorerQuerySchema,
  rawEventPageSchema,
} from '../../../contracts/admin.ts';
import { listEvents, readEvent } from '../../../audit/index.ts';
import { requireAdmin } from '../../auth/authenticate.ts';
import { withData } from '../../docs.ts';
import { ok } from '../../envelope.ts';
import { ApiError } from '../../errors.ts';
import { adminRoute, type AdminRouteDependencies } from './admin-route.ts';
import type { ZodRoutes } from '../../request-validation.ts';

export function registerExplorerRoutes(app: ZodRoutes, deps: Pick<AdminRouteDependencies, 'db'>): void {
  app.get(
    '/api/admin/events',
    adminRoute(app, {
      summary: 'Ledger explorer: events by stream, type, actor and time',
      description:
        'Filters: stream, type, actor, from, to. Keyset paging by position: after=<nextAfter>, limit (no gaps or repeats).',
      querystring: explorerQuerySchema,
      replies: { 200: withData(rawEventPageSchema, 'One page of events') },
    }),
    async (request, reply) => {
      await requireAdmin(request);
      const { after, limit, ...filter } = request.query;
      return ok(reply, 'Events fetched', await listEvents(deps.db, filter, { after, limit }));
    },
  );

  const eventDocs = {
    summary: 'One event with its postings',
    params: eventParamsSchema,
    replies: { 200: withData(eventDetailSchema, 'The event') },
    errors: [404],
  } as const;
  app.get('/api/admin/events/:position', adminRoute(app, eventDocs), async (request, reply) => {
    await requireAdmin(request);
    const { position } = request.params;
    const event = await readEvent(deps.db, position);
    if (!event) throw new ApiError('not_found', 'Event not found');
    return ok(reply, 'Event fetched', event);
  });
}
