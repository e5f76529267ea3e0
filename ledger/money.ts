/**
 * Money inside the ledger: integer paise as bigint. Rupees exist only at the HTTP and
 * display edges (contracts/money.ts); nothing here ever holds a fractional amount.
 */
export type Paise = bigint;

export const PAISE_PER_RUPEE = 100n;

export function rupees(whole: number): Paise {
  if (!Number.isSafeInteger(whole)) throw new RangeError(`not a whole number of rupees: ${whole}`);
  return BigInt(whole) * PAISE_PER_RUPEE;
}

export function isPositive(amount: Paise): boolean {
  return amount > 0n;
}
