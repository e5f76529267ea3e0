/**
 * /api/transactions/*: verify an account, transfer, deposit (bank transfer, UPI, card),
 * history. Commands go to the ledger; reads come from the projections. The signed-in user is
 * always the one who pays and the one whose history is read: nothing in the body chooses a
 * sender, a wallet or a status. (The admins' settle/fail of pending deposits share the
 * prefix: api/routes/admin/deposits.ts.)
 */
import { newId } from '../../platform/ids.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import { rupeesFromPaise } from '../../contracts/money.ts';
import {
  HISTORY_PAGE_SIZE,
  cardActionResultSchema,
  commandHeadersSchema,
  depositResultSchema,
  depositSchema,
  historyQuerySchema,
  historyReplySchema,
  transferResultSchema,
  transferSchema,
  verifiedAccountSchema,
  verifyAccountSchema,
  type TransactionRecord,
} from '../../contracts/transactions.ts';
import { dayEnd, dayStart } from '../../contracts/statements.ts';
import { requireTransferTerms } from '../../ledger/index.ts';
import {
  CARD_DEPOSIT_PENDING_MESSAGE,
  CARD_DEPOSIT_SUCCESS_MESSAGE,
  startCardDeposit,
  type CardDepositOutcome,
} from '../../payments/index.ts';
import { readHistoryPage, type HistoryRow } from '../../projections/index.ts';
import { requireUser } from '../auth/authenticate.ts';
import { accountLookupRateLimit } from '../auth/rate-limit.ts';
import { routeSchema, withData } from '../docs.ts';
import { ok } from '../envelope.ts';
import { ApiError } from '../errors.ts';
import type { ZodRoutes, ZodTypeProvider } from '../request-validation.ts';
import {
  WALLET_BANK_NAME,
  awaitCheckpoint,
  commandContext,
  displayName,
  requireActiveAccount,
  requirePin,
  type MoneyDependencies,
} from '../money-context.ts';
import { REPLY_WAITS_FOR } from '../read-after-reply.ts';
import { depositInstructions } from '../deposit-instructions.ts';

/** A payment's reply waits for the balances and the histories (api/read-after-reply.ts). */
const PAYMENT = { config: { readAfterReply: REPLY_WAITS_FOR.payment } };

/** Without paging parameters the spec's client gets a plain list: the newest, this many at most. */
export const UNPAGED_HISTORY_LIMIT = 100;

export const TRANSFER_SUCCESS_MESSAGE = 'Transfer completed successfully!';
export const DEPOSIT_PENDING_MESSAGE =
  'Deposit request submitted successfully! It will be processed within 1-2 business days.';

export async function registerTransactionRoutes(app: FastifyInstance, deps: MoneyDependencies): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  registerAccountLookup(routes, deps);
  registerTransfer(routes, deps);
  registerDeposit(routes, deps);
  registerHistoryRoute(routes, deps);
}

/** Who owns an account number (name and bank), before paying or asking it. */
function registerAccountLookup(app: ZodRoutes, deps: MoneyDependencies): void {
  app.post(
    '/api/transactions/verify-account',
    {
      preValidation: app.authenticate,
      config: accountLookupRateLimit(deps.rateLimit),
      ...routeSchema({
        summary: 'Who owns an account number (name and bank)',
        body: verifyAccountSchema,
        replies: { 200: withData(verifiedAccountSchema, 'The account holder') },
        errors: [404],
      }),
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { receiver } = request.body;
      const account = await requireActiveAccount(deps.db, receiver);
      return ok(reply, 'Account verified successfully', {
        name: displayName(account),
        firstName: account.firstName,
        lastName: account.lastName,
        accountNumber: account.id,
        bankName: WALLET_BANK_NAME,
        // The forms refuse paying or asking yourself; the flag lets them say so at once.
        isOwnAccount: account.id === user.id,
      });
    },
  );
}

/** A transfer from the signed-in user's wallet (never the body's `sender`). */
function registerTransfer(app: ZodRoutes, deps: MoneyDependencies): void {
  const docs = routeSchema({
    summary: 'Send money from your wallet',
    description:
      'Checks the transaction PIN first. `sender`, if sent, must be the signed-in user (403). Accepts an Idempotency-Key.',
    body: transferSchema,
    headers: commandHeadersSchema,
    replies: { 200: withData(transferResultSchema, 'Transferred') },
    errors: [404, 409, 422],
  });
  app.post(
    '/api/transactions/transfer-funds',
    { preValidation: app.authenticate, ...docs, ...PAYMENT },
    async (request, reply) => {
      const user = await requireUser(request);
      const body = request.body;
      if (body.sender !== undefined && body.sender !== user.id)
        throw new ApiError('forbidden', 'You can only send money from your own account');
      return ok(
        reply,
        TRANSFER_SUCCESS_MESSAGE,
        await transferFromSession(deps, request, user.id, { ...body, receiverId: body.receiver }),
      );
    },
  );
}

/**
 * A transfer from the signed-in user's wallet to an account the server chose (transfer-funds'
 * `receiver`, or the account a mobile number or handle names): the ledger's terms, the PIN,
 * the command, and the reply's data.
 */
export async function transferFromSession(
  deps: MoneyDependencies,
  request: FastifyRequest,
  userId: string,
  payment: { receiverId: string; amount: bigint; reference: string; transactionPin: string },
) {
  // The ledger's own rules (no paying yourself), asked before the PIN check: a transfer it would refuse costs no PIN attempt.
  requireTransferTerms({
    fromAccountId: userId,
    toAccountId: payment.receiverId,
    amountPaise: payment.amount,
    reference: payment.reference,
  });
  // The payee (active, or 404) is read with the PIN row, before any PIN attempt is counted.
  await requirePin(deps, userId, payment.transactionPin, { payeeId: payment.receiverId });
  const result = await deps.ledger.transfer(
    {
      transferId: newId(),
      fromAccountId: userId,
      toAccountId: payment.receiverId,
      amountPaise: payment.amount,
      reference: payment.reference,
    },
    commandContext(request, userId),
  );
  return {
    transactionId: result.transferId,
    _id: result.transferId,
    sender: userId,
    receiver: payment.receiverId,
    amount: rupeesFromPaise(payment.amount),
    reference: payment.reference,
    status: 'success' as const,
    checkpoint: result.checkpoint,
    replayed: result.replayed,
  };
}

/** Deposits into the signed-in user's wallet: card (charged, then credited) or bank/UPI (pending review). */
function registerDeposit(app: ZodRoutes, deps: MoneyDependencies): void {
  const docs = routeSchema({
    summary: 'Deposit into your wallet (bank transfer, UPI or card)',
    description:
      'Bank transfer and UPI: pending until an admin settles it. Card: charged, then credited (200), or 3-D Secure needed (202). Accepts an Idempotency-Key.',
    body: depositSchema,
    headers: commandHeadersSchema,
    replies: {
      200: withData(depositResultSchema, 'Pending review (bank transfer, UPI) or credited (card)'),
      202: withData(cardActionResultSchema, 'The card payment needs the browser (3-D Secure)'),
    },
    errors: [402, 409, 422],
  });
  app.post(
    '/api/transactions/deposit-funds',
    { preValidation: app.authenticate, ...docs, ...PAYMENT },
    async (request, reply) => {
      const user = await requireUser(request);
      const body = request.body;
      await requirePin(deps, user.id, body.transactionPin);
      const ctx = commandContext(request, user.id);
      if (body.paymentMethod === 'card') {
        const outcome = await startCardDeposit(
          { ledger: deps.ledger, provider: deps.card.provider },
          {
            walletId: user.id,
            amountPaise: body.amount,
            reference: body.reference,
            paymentMethodId: body.paymentMethodId,
            customerEmail: user.email,
          },
          ctx,
        );
        return cardDepositReply(reply, outcome);
      }
      const details = body.paymentMethod === 'upi' ? body.upiDetails : body.bankDetails;
      const result = await deps.ledger.requestDeposit(
        {
          depositId: newId(),
          walletId: user.id,
          amountPaise: body.amount,
          method: body.paymentMethod,
          reference: body.reference,
          details,
        },
        ctx,
      );
      return ok(reply, DEPOSIT_PENDING_MESSAGE, {
        transactionId: result.depositId,
        status: 'pending',
        checkpoint: result.checkpoint,
        instructions: await depositInstructions(deps.collection, {
          depositId: result.depositId,
          amountPaise: body.amount,
          reference: body.reference,
        }),
      });
    },
  );
}

/** What the card provider said, as the client reads it: credited (200), 3-D Secure (202), or refused. */
function cardDepositReply(reply: FastifyReply, outcome: CardDepositOutcome) {
  switch (outcome.status) {
    case 'credited':
      return ok(reply, CARD_DEPOSIT_SUCCESS_MESSAGE, {
        transactionId: outcome.depositId,
        status: 'success',
        checkpoint: outcome.checkpoint,
      });
    case 'pending':
      return ok(
        reply,
        CARD_DEPOSIT_PENDING_MESSAGE,
        {
          transactionId: outcome.depositId,
          status: 'requires_action',
          clientSecret: outcome.clientSecret,
          nextAction: outcome.nextAction,
          checkpoint: outcome.checkpoint,
        },
        202,
      );
    case 'failed':
      throw new ApiError('card_failed', outcome.message, {
        status: outcome.code === 'provider_unavailable' ? 503 : 402,
        publicCode: outcome.code,
      });
  }
}

/** The signed-in user's history: a plain list (the spec's client) or pages with search. */
function registerHistoryRoute(app: ZodRoutes, deps: MoneyDependencies): void {
  app.post(
    '/api/transactions/get-all-transactions-by-user',
    {
      preValidation: app.authenticate,
      ...routeSchema({
        summary: "The signed-in user's history",
        description:
          "Without `page`: a plain list of the newest 100 (the spec's client). With `page`: pages with search and type filter. `userId` in the body is ignored.",
        body: historyQuerySchema,
        absentBodyIsEmpty: true,
        replies: { 200: withData(historyReplySchema, 'The history') },
      }),
    },
    async (request, reply) => {
      const user = await requireUser(request);
      // `userId` in the body (the spec's client sends it) is never read: it is always the caller's history.
      const query = request.body;
      await awaitCheckpoint(deps, 'history', query.minPosition);
      const type = query.type === 'all' ? undefined : query.type;
      // Dates are India Standard Time days, as on a statement.
      const since = query.from ? dayStart(query.from) : undefined;
      const until = query.to ? dayEnd(query.to) : undefined;
      // Without `page` (the spec's client): one unpaged list, capped; with it, a page and its total.
      const paged = query.page !== undefined;
      const pageSize = paged ? (query.pageSize ?? HISTORY_PAGE_SIZE) : UNPAGED_HISTORY_LIMIT;
      const page = await deps.reads.read('history', (reads) =>
        readHistoryPage(reads, {
          accountId: user.id,
          search: query.search,
          type,
          since,
          until,
          page: query.page ?? 1,
          pageSize,
        }),
      );
      if (!paged) return ok(reply, 'Transactions fetched successfully', page.rows.map(toTransactionRecord));
      return ok(reply, 'Transactions fetched successfully', {
        items: page.rows.map(toTransactionRecord),
        total: page.total,
        // False for a search with more matches than it counts: `total` is then "at least".
        totalExact: page.totalExact,
        page: query.page,
        pageSize,
      });
    },
  );
}

/** The spec's transaction shape (sender/receiver as plain id strings), plus our own fields. */
export function toTransactionRecord(row: Selectable<HistoryRow>): TransactionRecord {
  return {
    // A reversal is its own movement: its row gets its own id (clients key lists by _id),
    // which still contains the original's, so searching by the original id finds both.
    _id: row.method === 'reversal' ? `${row.transaction_id}-reversal` : row.transaction_id,
    sender: row.sender_id,
    receiver: row.receiver_id,
    amount: rupeesFromPaise(row.amount_paise),
    reference: row.reference,
    status: row.status,
    type: row.type,
    method: row.method,
    counterpartyId: row.counterparty_id,
    counterpartyName: row.counterparty_name,
    ...(row.failure_reason === null ? {} : { failureReason: row.failure_reason }),
    createdAt: row.created_at.toISOString(),
  };
}
