/**
 * Paying people the way they already do (issue 43): find a payee by account number, mobile
 * number or handle; pay them; the user's recent payees; and choosing one's own handle. These
 * are additions beside the spec's routes, which stay as they are. A lookup answers a name and
 * what the payer typed (masked), never an account id it was not given, and counts in the
 * account lookup's budget; the payment resolves the payee again on the server, so nothing the
 * client sends but its words chooses who is paid.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  RECENT_PAYEES_LIMIT,
  chooseHandleSchema,
  findPayeeSchema,
  foundPayeeSchema,
  payeeTransferSchema,
  recentPayeesSchema,
  shownPayee,
  type PayeeKey,
} from '../../contracts/payees.ts';
import { commandHeadersSchema, transferResultSchema } from '../../contracts/transactions.ts';
import { chooseHandle, findActivePayee, type AccountSummary } from '../../identity/index.ts';
import { readRecentPayees } from '../../projections/index.ts';
import { requireUser } from '../auth/authenticate.ts';
import { accountLookupRateLimit } from '../auth/rate-limit.ts';
import { routeSchema, withData } from '../docs.ts';
import { ok } from '../envelope.ts';
import { ApiError } from '../errors.ts';
import { displayName, type MoneyDependencies } from '../money-context.ts';
import { REPLY_WAITS_FOR } from '../read-after-reply.ts';
import type { ZodRoutes, ZodTypeProvider } from '../request-validation.ts';
import { TRANSFER_SUCCESS_MESSAGE, transferFromSession } from './transactions.ts';

export function registerPayeeRoutes(app: FastifyInstance, deps: MoneyDependencies): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  registerFindPayee(routes, deps);
  registerPayPayee(routes, deps);
  registerRecentPayees(routes, deps);
  registerChooseHandle(routes, deps);
}

/** The payee's account, or the account lookup's own 404: unknown, suspended and ambiguous look alike. */
async function requirePayee(deps: MoneyDependencies, payee: PayeeKey): Promise<AccountSummary> {
  const account = await findActivePayee(deps.db, payee);
  if (!account) throw new ApiError('unknown_account', 'Account not found');
  return account;
}

function registerFindPayee(app: ZodRoutes, deps: MoneyDependencies): void {
  app.post(
    '/api/transactions/find-payee',
    {
      preValidation: app.authenticate,
      config: accountLookupRateLimit(deps.rateLimit),
      ...routeSchema({
        summary: 'Who an account number, mobile number or handle pays (the name only)',
        description:
          'Counts in the same budget as verify-account. Unknown, suspended and unverified payees all answer 404 "Account not found".',
        body: findPayeeSchema,
        replies: { 200: withData(foundPayeeSchema, 'The payee') },
        errors: [404],
      }),
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { payee } = request.body;
      const account = await requirePayee(deps, payee);
      return ok(reply, 'Account verified successfully', {
        name: displayName(account),
        kind: payee.kind,
        shown: shownPayee(payee),
        isOwnAccount: account.id === user.id,
      });
    },
  );
}

function registerPayPayee(app: ZodRoutes, deps: MoneyDependencies): void {
  app.post(
    '/api/transactions/transfer-to-payee',
    {
      preValidation: app.authenticate,
      config: { readAfterReply: REPLY_WAITS_FOR.payment },
      ...routeSchema({
        summary: 'Send money to an account number, mobile number or handle',
        description:
          'As transfer-funds, with the payee found on the server from `payee`. Checks the transaction PIN. Accepts an Idempotency-Key.',
        body: payeeTransferSchema,
        headers: commandHeadersSchema,
        replies: { 200: withData(transferResultSchema, 'Transferred') },
        errors: [404, 409, 422],
      }),
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { payee, ...payment } = request.body;
      const account = await requirePayee(deps, payee);
      const data = await transferFromSession(deps, request, user.id, { ...payment, receiverId: account.id });
      return ok(reply, TRANSFER_SUCCESS_MESSAGE, data);
    },
  );
}

function registerRecentPayees(app: ZodRoutes, deps: MoneyDependencies): void {
  app.get(
    '/api/transactions/recent-payees',
    {
      preValidation: app.authenticate,
      ...routeSchema({
        summary: 'The people you paid most recently, newest first',
        replies: { 200: withData(recentPayeesSchema, 'Recent payees') },
      }),
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const payees = await deps.reads.read('history', (reads) =>
        readRecentPayees(reads, { accountId: user.id, limit: RECENT_PAYEES_LIMIT }),
      );
      return ok(
        reply,
        'Recent payees fetched successfully',
        payees.map((payee) => ({
          accountNumber: payee.accountId,
          name: payee.name,
          lastPaidAt: payee.lastPaidAt.toISOString(),
        })),
      );
    },
  );
}

function registerChooseHandle(app: ZodRoutes, deps: MoneyDependencies): void {
  app.post(
    '/api/users/set-handle',
    {
      preValidation: app.authenticate,
      ...routeSchema({
        summary: 'Choose your handle (asha@wallet), once',
        body: chooseHandleSchema,
        replies: { 200: withData(z.object({ handle: z.string() }), 'The handle') },
        errors: [409],
      }),
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { handle } = request.body;
      await chooseHandle(deps.db, user.id, handle);
      return ok(reply, 'Handle saved', { handle });
    },
  );
}
