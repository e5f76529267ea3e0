/**
 * The reply envelope of every API response, errors included (spec section 7): the type the
 * web client reads, and the zod schemas the OpenAPI document is generated from (api/docs.ts).
 */
import { z } from 'zod';

export interface Envelope<Data = unknown> {
  success: boolean;
  message: string;
  code?: string;
  data?: Data;
}

/** A refusal or failure: `success` false, the message the client shows, and a stable code. */
export const errorEnvelopeSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  code: z.string().optional().meta({ description: 'A stable code clients may match (e.g. PIN_NOT_SET)' }),
});

/** A success that says only its message. */
export const messageEnvelopeSchema = z.object({ success: z.literal(true), message: z.string() });

/** A success carrying `data` of the given shape. */
export function envelopeSchema<Data extends z.ZodType>(data: Data) {
  return z.object({ success: z.literal(true), message: z.string(), data });
}
