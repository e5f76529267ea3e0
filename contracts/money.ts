/**
 * Rupees on the wire, paise inside. The HTTP contract carries amounts as JSON numbers in
 * rupees; they are parsed here exactly once, from their decimal text, never through float
 * arithmetic, and anything that is not a plain decimal with at most two places is refused.
 */
const RUPEE_TEXT = /^(\d{1,15})(?:\.(\d{1,2}))?$/;

/** Exact rupees -> paise, or null when the value is not a non-negative amount with <= 2 decimals. */
export function paiseFromRupees(value: unknown): bigint | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    // The shortest round-trip text of a JSON number is what the client wrote (e.g. 10.05).
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return null;
  }
  const match = RUPEE_TEXT.exec(text);
  if (!match) return null;
  const [, whole = '0', fraction = ''] = match;
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
}

/** Paise -> rupees as a JSON number (the wire format), exact for every amount below 2^53 paise. */
export function rupeesFromPaise(paise: bigint): number {
  return Number(rupeesText(paise));
}

/** Paise -> rupees as decimal text with both paise digits ("-12.05"), never through a float. */
export function rupeesText(paise: bigint): string {
  const sign = paise < 0n ? '-' : '';
  const absolute = paise < 0n ? -paise : paise;
  return `${sign}${absolute / 100n}.${(absolute % 100n).toString().padStart(2, '0')}`;
}

const inrFormat = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 2, minimumFractionDigits: 2 });
const inrWholeFormat = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 });

/** "₹1,00,000.50": Indian digit grouping with the rupee sign. */
export function formatRupees(rupees: number, options: { whole?: boolean } = {}): string {
  // The sign goes before the rupee sign: -₹3,750, not ₹-3,750.
  const sign = rupees < 0 ? '-' : '';
  // Whole amounts without decimals (₹1,500), others with both paise digits (₹24.50).
  const format = options.whole || Number.isInteger(rupees) ? inrWholeFormat : inrFormat;
  return `${sign}₹${format.format(Math.abs(rupees))}`;
}

const inrCurrency = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });

/**
 * Paise -> "₹1,23,456.78" / "-₹900.00": Indian digit grouping, always both paise digits, exact
 * for any bigint (Intl formats the decimal text itself, never a float).
 */
export function formatPaise(paise: bigint): string {
  return inrCurrency.format(rupeesText(paise) as `${number}`);
}
