/**
 * The `{ success, message, code?, data? }` envelope on every reply, errors included:
 * validation errors, rejections, unknown routes, rate limits, empty bodies, crashes.
 */
import type { FastifyError, FastifyInstance, FastifyReply, preHandlerAsyncHookHandler } from 'fastify';
import { ZodError } from 'zod';
import type { Envelope } from '../contracts/envelope.ts';
import { firstMessage } from '../contracts/fields.ts';
import { isApprovalRejection } from '../admin-actions/index.ts';
import { isIdentityRejection } from '../identity/index.ts';
import { isLedgerRejection } from '../ledger/index.ts';
import { API_ERRORS, ApiError } from './errors.ts';

export function ok<Data>(reply: FastifyReply, message: string, data?: Data, status = 200): Envelope<Data> {
  reply.code(status);
  return data === undefined ? { success: true, message } : { success: true, message, data };
}

export function toEnvelopeError(error: unknown): { status: number; body: Envelope } {
  if (error instanceof ApiError)
    return { status: error.status, body: { success: false, message: error.message, code: error.code } };
  if (error instanceof ZodError)
    return { status: 400, body: { success: false, message: firstMessage(error), code: 'validation_failed' } };
  if (isIdentityRejection(error))
    return {
      status: API_ERRORS[error.code].status,
      body: { success: false, message: error.message, code: error.code },
    };
  if (isLedgerRejection(error) || isApprovalRejection(error)) {
    const entry = API_ERRORS[error.code];
    return {
      status: entry.status,
      body: { success: false, message: entry.message, code: entry.publicCode ?? error.code },
    };
  }
  const fastifyError = error as Partial<FastifyError>;
  if (fastifyError.statusCode === 429)
    return { status: 429, body: { success: false, message: API_ERRORS.rate_limited.message, code: 'rate_limited' } };
  if (
    fastifyError.validation ||
    fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ||
    fastifyError.code?.startsWith('FST_ERR_CTP')
  ) {
    return {
      status: fastifyError.statusCode ?? 400,
      body: { success: false, message: 'Invalid request body', code: 'validation_failed' },
    };
  }
  if (typeof fastifyError.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return {
      status: fastifyError.statusCode,
      body: {
        success: false,
        message: fastifyError.message ?? 'Bad request',
        code: fastifyError.code ?? 'bad_request',
      },
    };
  }
  if (isConnectionFailure(error))
    return {
      status: 503,
      body: { success: false, message: API_ERRORS.database_unavailable.message, code: 'database_unavailable' },
    };
  return { status: 500, body: { success: false, message: API_ERRORS.internal.message, code: 'internal' } };
}

/** How long a client is told to wait before retrying a 503 `database_unavailable` (a failover takes seconds). */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * The database cannot take the request right now, and says so before doing anything: the
 * server is gone or going (connection refused or reset, terminated, 57P01 admin shutdown,
 * 57P02 crash shutdown, 57P03 cannot connect now), or it is a standby that refuses writes
 * (25006 read_only_sql_transaction: a router still pointing at a demoted primary during a
 * failover or switchover). A transaction that failed like this did not commit here; one whose
 * COMMIT's reply was lost is settled by the client's retry with the same Idempotency-Key.
 */
export function isConnectionFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === '57P01' ||
    code === '57P02' ||
    code === '57P03' ||
    code === '25006' ||
    (error instanceof Error &&
      /Connection terminated|connect ECONNREFUSED|not queryable|the database system is (starting up|shutting down|in recovery mode)|timeout exceeded when trying to connect/.test(
        error.message,
      ))
  );
}

/**
 * Fastify's router refuses some URLs before any hook runs (a path parameter over
 * maxParamLength, a malformed escape): without this they get fastify's own body, and echo
 * the whole (maybe huge) path back.
 */
export function frameworkErrorEnvelope(error: Partial<FastifyError>, _request: unknown, reply: FastifyReply): void {
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  void reply.code(tooLong ? 414 : 400).send({
    success: false,
    message: tooLong ? 'A path parameter is too long' : 'Invalid URL',
    code: 'validation_failed',
  });
}

export function installEnvelope(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const { status, body } = toEnvelopeError(error);
    if (isIdentityRejection(error) && error.retryAfterSeconds !== undefined)
      reply.header('retry-after', String(error.retryAfterSeconds));
    if (body.code === 'database_unavailable') reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    return reply.code(status).send(body);
  });
}

/**
 * The envelope for requests that match no route. `preHandler` is the rate limiter: without it
 * a request to no route would be the one kind of API request nobody counts.
 */
export function installNotFoundEnvelope(
  app: FastifyInstance,
  options: { preHandler: preHandlerAsyncHookHandler },
): void {
  app.setNotFoundHandler({ preHandler: options.preHandler }, (request, reply) =>
    reply.code(404).send({
      success: false,
      message: `Route ${request.method} ${request.url.split('?')[0]} not found`,
      code: 'not_found',
    }),
  );
}
