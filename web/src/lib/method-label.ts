/**
 * A money movement's method (bank_transfer, upi, card, transfer, request) in the reader's
 * language, for the admin's tables; an unknown one is shown as the API names it.
 */
import i18next from 'i18next';

const METHODS = ['bank_transfer', 'upi', 'card', 'transfer', 'request'] as const;

export function methodLabel(method: string | null): string {
  if (method === null) return '-';
  const known = METHODS.find((candidate) => candidate === method);
  return known ? i18next.t(`topUp.methods.${known}`) : method;
}
