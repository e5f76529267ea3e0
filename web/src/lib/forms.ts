/**
 * Form validation with the shared zod schemas of contracts/: the first message per field,
 * exactly as the server words it.
 */
import type { z } from 'zod';
import { fieldErrors } from '../../../contracts/fields.ts';

export type FieldErrors = Record<string, string>;

export type Validation<Output> = { ok: true; data: Output } | { ok: false; errors: FieldErrors; first: string };

export function validate<Schema extends z.ZodType>(schema: Schema, values: unknown): Validation<z.output<Schema>> {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const errors = fieldErrors(result.error);
  return { ok: false, errors, first: result.error.issues[0]?.message ?? 'Invalid input' };
}

/** Keeps digits only, up to `max` (PIN and OTP inputs). */
export function digitsOnly(value: string, max: number): string {
  return value.replace(/\D/g, '').slice(0, max);
}
