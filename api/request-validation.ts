/**
 * Requests are checked by the zod schemas on their routes (`routeSchema`, api/docs.ts), by
 * Fastify's validation step, before the handler runs - the schema that documents a route is
 * the one that checks it. Route guards (`app.authenticate`, `app.requireAdmin`) are
 * preValidation hooks, so a request without a session is refused as such whatever its input,
 * as it was when handlers parsed their own input.
 *
 * A refused part is answered with the ZodError itself: the error handler turns it into the
 * 400 `validation_failed` envelope with the first issue's message (api/envelope.ts), the reply
 * a handler's own `.parse` gave. A part described by a JSON schema (headers, and routes still
 * documented with `routeDocs`) is documentation only and passes as it is.
 */
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifySchemaCompiler,
  FastifyTypeProvider,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  preValidationAsyncHookHandler,
} from 'fastify';
import { z } from 'zod';

/** Types a route's request from its zod schemas: `app.withTypeProvider<ZodTypeProvider>()`. */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

/** The app as route files register on it: requests typed by their routes' zod schemas. */
export type ZodRoutes = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/**
 * Stands for a body that was not sent: Fastify hands a validator `null` for it, which a JSON
 * `null` body also is, and zod words the two differently.
 */
const ABSENT_BODY = Symbol('absent body');

/** The validator compiler of every API route (set by api/docs.ts's onRoute hook). */
export const validateWithZod: FastifySchemaCompiler<unknown> = ({ schema }) => {
  if (!(schema instanceof z.ZodType)) return () => true;
  return (data) => {
    const result = schema.safeParse(data === ABSENT_BODY ? undefined : data);
    return result.success ? { value: result.data } : { error: result.error };
  };
};

/**
 * preValidation of a route whose body a zod schema checks: an absent body reads as `{}` when
 * the route says so (`absentBodyIsEmpty`: a JSON null too), otherwise as absent.
 */
export function readAbsentBody(absentBodyIsEmpty: boolean): preValidationAsyncHookHandler {
  return async (request) => {
    if (absentBodyIsEmpty) request.body ??= {};
    else if (request.body === undefined) request.body = ABSENT_BODY;
  };
}
