/**
 * Rules every money command re-checks, whatever the caller checked before: amounts are
 * positive paise within limits, references are present and bounded.
 */
import { MAX_REFERENCE_LENGTH } from './limits.ts';
import type { Paise } from './money.ts';
import { reject } from './rejections.ts';

export function requireAmountInRange(amountPaise: Paise, minPaise: Paise, maxPaise?: Paise): void {
  if (typeof amountPaise !== 'bigint' || amountPaise < minPaise) {
    reject('invalid_amount', `Amount must be at least ${minPaise} paise`);
  }
  if (maxPaise !== undefined && amountPaise > maxPaise) {
    reject('limit_exceeded', `Amount must be at most ${maxPaise} paise`);
  }
}

export function requireReference(reference: string): void {
  const trimmed = reference.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_REFERENCE_LENGTH) {
    reject('invalid_reference', `Reference must be 1 to ${MAX_REFERENCE_LENGTH} characters`);
  }
}
