/**
 * An amount as a person types and reads it: en-IN digit grouping while typing
 * ("100000.5" -> "1,00,000.5"), the grouped text read back as plain rupee text for the
 * amount rule of fields.ts (so the server and the forms parse it with one rule). Showing
 * exact paise ("₹1,00,000.00") is money.ts's formatPaise.
 */

/** The most rupee digits an amount may have before the decimal point (money.ts's RUPEE_TEXT). */
export const MAX_RUPEE_DIGITS = 15;

/** Correct en-IN grouping: the last three digits, then pairs ("12,34,567.8"); nothing else. */
const EN_IN_GROUPED = /^\d{1,2}(?:,\d{2})*,\d{3}(?:\.\d*)?$/;

/** "1234567" -> "12,34,567": the last three digits, then groups of two. */
export function groupIndianDigits(digits: string): string {
  if (digits.length <= 3) return digits;
  const groups = [digits.slice(-3)];
  for (let end = digits.length - 3; end > 0; end -= 2) groups.unshift(digits.slice(Math.max(0, end - 2), end));
  return groups.join(',');
}

/**
 * What the amount field shows for what was typed or pasted: digits and one decimal point
 * kept (at most two decimals, at most MAX_RUPEE_DIGITS whole digits, no leading zeros),
 * everything else dropped, the whole part grouped en-IN. Idempotent: grouping grouped text
 * gives the same text.
 */
export function groupTypedRupees(typed: string): string {
  const cleaned = typed.replace(/[^\d.]/g, '');
  const point = cleaned.indexOf('.');
  const wholeTyped = point === -1 ? cleaned : cleaned.slice(0, point);
  const fraction =
    point === -1
      ? null
      : cleaned
          .slice(point + 1)
          .replace(/\./g, '')
          .slice(0, 2);
  let whole = wholeTyped.replace(/^0+(?=\d)/, '').slice(0, MAX_RUPEE_DIGITS);
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
