/**
 * Money helpers for forms: the balance in paise for comparisons (never float arithmetic on
 * amounts), and rupees for the wire from the exact paise the schema parsed.
 */
import { paiseFromRupees, rupeesFromPaise } from '../../../contracts/money.ts';

export { rupeesFromPaise };

/** The balance (rupees, JSON number) in paise; a balance with stray decimals is rounded. */
export function balancePaise(balanceRupees: number): bigint {
  return paiseFromRupees(balanceRupees) ?? BigInt(Math.round(balanceRupees * 100));
}
