/**
 * An amount as a person types and reads it: en-IN digit grouping while typing
 * ("100000.5" -> "1,00,000.5", nothing else rewritten), the grouped text read back as plain rupee text for the
 * amount rule of fields.ts (so the server and the forms parse it with one rule). Showing
 * exact paise ("₹1,00,000.00") is money.ts's formatPaise.
 */

import { paiseFromRupees } from './money.ts';

/** Correct en-IN grouping: the last three digits, then pairs ("12,34,567.8"); nothing else. */
const EN_IN_GROUPED = /^\d{1,2}(?:,\d{2})*,\d{3}(?:\.\d*)?$/;

/** "1234567" -> "12,34,567": the last three digits, then groups of two. */
export function groupIndianDigits(digits: string): string {
  if (digits.length <= 3) return digits;
  const groups = [digits.slice(-3)];
  for (let end = digits.length - 3; end > 0; end -= 2) groups.unshift(digits.slice(Math.max(0, end - 2), end));
  return groups.join(',');
}

/** Text that is only an amount being written: digits, grouping commas, at most one point. */
const AMOUNT_SHAPE = /^[\d,]*(?:\.\d*)?$/;

/**
 * What the amount field shows for what was typed or pasted. Text shaped like an amount
 * (digits, commas, one point) has its whole part grouped en-IN and its leading zeros
 * dropped; every digit typed is kept, decimals too. Anything else (a sign, a letter, a
 * second point) is left exactly as typed, so the amount rule (fields.ts's
 * amountTextProblem) refuses it with its reason instead of the field quietly rewriting
 * it. Idempotent: grouping grouped text gives the same text.
 */
export function groupTypedRupees(typed: string): string {
  if (!AMOUNT_SHAPE.test(typed)) return typed;
  const cleaned = typed.replace(/,/g, '');
  const point = cleaned.indexOf('.');
  const wholeTyped = point === -1 ? cleaned : cleaned.slice(0, point);
  const fraction = point === -1 ? null : cleaned.slice(point + 1);
  let whole = wholeTyped.replace(/^0+(?=\d)/, '');
  if (whole === '' && fraction !== null) whole = '0';
  const grouped = groupIndianDigits(whole);
  return fraction === null ? grouped : `${grouped}.${fraction}`;
}

/**
 * Grouped rupee text back to plain decimal text ("1,00,000.50" -> "100000.50"). Only a
 * correctly grouped value loses its commas; anything else is returned as it came, so the
 * amount rule refuses it ("1,0,0" is not an amount).
 */
export function ungroupRupees(text: string): string {
  const trimmed = text.trim();
  return EN_IN_GROUPED.test(trimmed) ? trimmed.replace(/,/g, '') : trimmed;
}

/**
 * The amount a history search's text names, in paise, or null when the text is not an amount:
 * "4000.50", "4,000.50" (grouped en-IN or by thousands), "₹4000.5", "Rs 4000". History search
 * matches it against each row's amount as well as matching the text in the row's words.
 */
export function searchedAmountPaise(text: string): bigint | null {
  const bare = text.trim().replace(/^(?:₹|rs\.?|inr)\s*/i, '');
  if (!/^\d+(?:,\d+)*(?:\.\d{1,2})?$/.test(bare)) return null;
  const paise = paiseFromRupees(bare.replace(/,/g, ''));
  return paise !== null && paise > 0n ? paise : null;
}
