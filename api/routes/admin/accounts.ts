/**
 * Account audit, /api/admin/accounts/:accountId/*: the statement (keyset pages, or a CSV
 * streamed in bounded memory) and the raw events of the account's streams (audit/).
 */
import type { z } from 'zod';
import {
  accountParamsSchema,
  positionPageQuerySchema,
  rawEventPageSchema,
  statementPageSchema,
  statementQuerySchema,
} from '../../../contracts/admin.ts';
import { readAccountEvents, readStatementPage, statementCsv, type StatementFilter } from '../../../audit/index.ts';
import { requireAdmin } from '../../auth/authenticate.ts';
import { fileReply, withData } from '../../docs.ts';
import { ok } from '../../envelope.ts';
import { adminRoute, type AdminRouteDependencies } from './admin-route.ts';
import type { ZodRoutes } from '../../request-validation.ts';

type AccountDependencies = Pick<AdminRouteDependencies, 'db' | 'awaitStatements'>;

const STATEMENT_FILTERS =
  'Filters: from, to (ISO dates), type (event types, comma-separated), direction (credit|debit).';

function statementFilter(accountId: string, query: z.infer<typeof statementQuerySchema>): StatementFilter {
  return { accountId, from: query.from, to: query.to, eventTypes: query.type, direction: query.direction };
}

export function registerAccountRoutes(app: ZodRoutes, deps: AccountDependencies): void {
  const statementInput = { params: accountParamsSchema, querystring: statementQuerySchema };

  app.get(
    '/api/admin/accounts/:accountId/statement',
    adminRoute(app, {
      summary: "An account's statement",
      description: `Every posting with running balance, counterparty, event type, position and time (read.statement_lines). ${STATEMENT_FILTERS} Keyset paging: after=<nextAfter>, limit.`,
      ...statementInput,
      replies: { 200: withData(statementPageSchema, 'One page of the statement') },
    }),
    async (request, reply) => {
      await requireAdmin(request);
      const { accountId } = request.params;
      const query = request.query;
      if (query.minPosition && deps.awaitStatements) await deps.awaitStatements(query.minPosition);
      return ok(reply, 'Statement fetched', await readStatementPage(deps.db, statementFilter(accountId, query), query));
    },
  );

  app.get(
    '/api/admin/accounts/:accountId/statement.csv',
    adminRoute(app, {
      summary: "An account's statement as CSV (streamed)",
      description:
        'Same filters as the statement; streamed in keyset batches, so any length downloads in bounded memory.',
      ...statementInput,
      replies: { 200: fileReply('text/csv', 'The statement as CSV (an attachment)') },
    }),
    async (request, reply) => {
      await requireAdmin(request);
      const { accountId } = request.params;
      const query = request.query;
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header(
        'content-disposition',
        `attachment; filename="statement-${accountId.replace(/[^A-Za-z0-9_-]/g, '_')}.csv"`,
      );
      reply.header('cache-control', 'no-store');
      return reply.send(statementCsv(deps.db, statementFilter(accountId, query)));
    },
  );

  app.get(
    '/api/admin/accounts/:accountId/events',
    adminRoute(app, {
      summary: "The raw events of an account's streams",
      description:
        'Wallet, transfer, deposit and request streams the account takes part in, with metadata (actor, idempotency key, request id, command). Keyset paging by position.',
      params: accountParamsSchema,
      querystring: positionPageQuerySchema,
      replies: { 200: withData(rawEventPageSchema, 'One page of events') },
    }),
    async (request, reply) => {
      await requireAdmin(request);
      const { accountId } = request.params;
      const query = request.query;
      return ok(reply, 'Events fetched', await readAccountEvents(deps.db, accountId, query));
    },
  );
}
