/**
 * /api/requests/*: ask another account holder for money, list sent and received requests,
 * and answer one. Accepting pays in the same ledger event, so it needs the payer's
 * transaction PIN - a deliberate hardening of the spec, whose client approves without one
 * (docs/decisions/0012-deviations-from-the-spec.md).
 *
 * The list is bounded: newest first, REQUESTS_PAGE_SIZE (100) by default - what the spec's
 * client, which sends no parameter, gets, in the same shape - and up to MAX_REQUESTS_PAGE_SIZE
 * (500) with `limit`; `before=<_id>` gives the requests older than one the caller has (a page
 * shorter than its limit is the last).
 */
import { newId } from '../../platform/ids.ts';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import { z } from 'zod';
import { rupeesFromPaise } from '../../contracts/money.ts';
import {
  SELF_REQUEST_MESSAGE,
  commandHeadersSchema,
  moneyRequestRecordSchema,
  requestAnsweredSchema,
  requestSentSchema,
  sendRequestSchema,
  updateRequestStatusSchema,
  type MoneyRequestRecord,
} from '../../contracts/transactions.ts';
import { REPLY_WAITS_FOR } from '../read-after-reply.ts';
import { boundedText, checkpointToken } from '../../contracts/fields.ts';
import { identityDb } from '../../identity/users.ts';
import { isLedgerRejection } from '../../ledger/index.ts';
import { readMoneyRequestPage, type MoneyRequestRow } from '../../projections/index.ts';
import { requireUser } from '../auth/authenticate.ts';
import { routeSchema, withData } from '../docs.ts';
import { ok } from '../envelope.ts';
import { ApiError } from '../errors.ts';
import type { ZodRoutes, ZodTypeProvider } from '../request-validation.ts';
import {
  awaitCheckpoint,
  commandContext,
  requireActiveAccount,
  requirePin,
  type MoneyDependencies,
} from '../money-context.ts';

/** Requests in one reply when the caller names no limit (the spec's client never does). */
export const REQUESTS_PAGE_SIZE = 100;
export const MAX_REQUESTS_PAGE_SIZE = 500;

const listQuerySchema = z.object({
  minPosition: checkpointToken.optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_REQUESTS_PAGE_SIZE)
    .optional()
    .meta({ description: `At most this many (default ${REQUESTS_PAGE_SIZE})` }),
  before: boundedText({ max: 64 })
    .regex(/^[A-Za-z0-9_-]+$/)
    .optional()
    .meta({ description: 'The `_id` of a request of yours: only requests older than it' }),
});

const LIST_DOCS = routeSchema({
  summary: 'Money requests you sent and received, newest first',
  description: `The newest ${REQUESTS_PAGE_SIZE} without parameters; \`limit\` (up to ${MAX_REQUESTS_PAGE_SIZE}) and \`before=<_id>\` page further (a page shorter than its limit is the last).`,
  querystring: listQuerySchema,
  replies: { 200: withData(z.array(moneyRequestRecordSchema), 'The requests') },
});
const SEND_DOCS = routeSchema({
  summary: 'Ask another account holder for money',
  body: sendRequestSchema,
  headers: commandHeadersSchema,
  replies: { 200: withData(requestSentSchema, 'Request sent') },
  errors: [404, 409, 422],
});
const ANSWER_DOCS = routeSchema({
  summary: 'Accept (pay, with the transaction PIN) or reject a request you received',
  body: updateRequestStatusSchema,
  headers: commandHeadersSchema,
  replies: { 200: withData(requestAnsweredSchema, 'Answered') },
  errors: [404, 409, 422],
});

export async function registerRequestRoutes(app: FastifyInstance, deps: MoneyDependencies): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  registerListRequests(routes, deps);
  registerSendRequest(routes, deps);
  registerAnswerRequest(routes, deps);
}

function registerListRequests(app: ZodRoutes, deps: MoneyDependencies): void {
  const list = { preValidation: app.authenticate, ...LIST_DOCS };
  app.get('/api/requests/get-all-requests-by-user', list, async (request, reply) => {
    const user = await requireUser(request);
    const query = request.query;
    await awaitCheckpoint(deps, 'money_requests', query.minPosition);
    const rows = await deps.reads.read('money_requests', (reads) =>
      readMoneyRequestPage(reads, user.id, { limit: query.limit ?? REQUESTS_PAGE_SIZE, before: query.before }),
    );
    if (!rows) throw new ApiError('validation_failed', '`before` is not one of your requests');
    return ok(reply, 'Requests fetched successfully', await toRequestRecords(deps, rows));
  });
}

function registerSendRequest(app: ZodRoutes, deps: MoneyDependencies): void {
  app.post(
    '/api/requests/send-request',
    { preValidation: app.authenticate, ...SEND_DOCS, config: { readAfterReply: REPLY_WAITS_FOR.moneyRequestSent } },
    async (request, reply) => {
      const user = await requireUser(request);
      const body = request.body;
      const payer = await requireActiveAccount(deps.db, body.receiver);
      try {
        const result = await deps.ledger.requestMoney(
          {
            requestId: newId(),
            requesterId: user.id,
            payerId: payer.id,
            amountPaise: body.amount,
            reference: body.reference,
          },
          commandContext(request, user.id),
        );
        return ok(reply, 'Request sent successfully!', {
          requestId: result.requestId,
          _id: result.requestId,
          status: 'pending',
          checkpoint: result.checkpoint,
        });
      } catch (error) {
        // The ledger refuses asking yourself; the error table's words for that code are the transfer's.
        if (isLedgerRejection(error) && error.code === 'self_transfer')
          throw new ApiError('self_transfer', SELF_REQUEST_MESSAGE);
        throw error;
      }
    },
  );
}

function registerAnswerRequest(app: ZodRoutes, deps: MoneyDependencies): void {
  const answer = {
    preValidation: app.authenticate,
    ...ANSWER_DOCS,
    config: { readAfterReply: REPLY_WAITS_FOR.moneyRequestAnswered },
  };
  app.post('/api/requests/update-request-status', answer, async (request, reply) => {
    const user = await requireUser(request);
    const body = request.body;
    const ctx = commandContext(request, user.id);
    if (body.status === 'rejected') {
      const result = await deps.ledger.rejectMoneyRequest({ requestId: body.requestId, payerId: user.id }, ctx);
      return ok(reply, 'Request rejected successfully', {
        requestId: body.requestId,
        status: 'rejected',
        checkpoint: result.checkpoint,
      });
    }
    if (!body.transactionPin) throw new ApiError('validation_failed', 'Transaction PIN is required');
    await requirePin(deps, user.id, body.transactionPin);
    try {
      const result = await deps.ledger.acceptMoneyRequest({ requestId: body.requestId, payerId: user.id }, ctx);
      return ok(reply, 'Request approved successfully', {
        requestId: body.requestId,
        status: 'accepted',
        checkpoint: result.checkpoint,
      });
    } catch (error) {
      // Not enough money: the request stays pending and says why.
      if (isLedgerRejection(error) && error.code === 'insufficient_funds')
        throw new ApiError('insufficient_funds', 'Insufficient balance to accept the request');
      throw error;
    }
  });
}

/** sender = who asked (requester), receiver = who is asked to pay; `{_id, firstName, lastName}` and nothing more. */
async function toRequestRecords(
  deps: MoneyDependencies,
  rows: readonly Selectable<MoneyRequestRow>[],
): Promise<MoneyRequestRecord[]> {
  const ids = [...new Set(rows.flatMap((row) => [row.requester_id, row.payer_id]))];
  const people = ids.length
    ? await identityDb(deps.db)
        .selectFrom('identity.users')
        .select(['id', 'first_name', 'last_name'])
        .where('id', 'in', ids)
        .execute()
    : [];
  const byId = new Map(
    people.map((person) => [person.id, { _id: person.id, firstName: person.first_name, lastName: person.last_name }]),
  );
  const party = (id: string, fallbackName: string) =>
    byId.get(id) ?? { _id: id, firstName: fallbackName, lastName: '' };
  return rows.map((row) => ({
    _id: row.request_id,
    amount: rupeesFromPaise(row.amount_paise),
    reference: row.reference,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    // The projection moves updated_at only with the accept or reject event.
    decidedAt: row.status === 'pending' ? null : row.updated_at.toISOString(),
    sender: party(row.requester_id, row.requester_name),
    receiver: party(row.payer_id, row.payer_name),
  }));
}
