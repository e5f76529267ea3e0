/**
 * The sandbox card form's rules and its payment-method token. The sandbox provider on the
 * server knows documented test cards by their last four digits (`pm_sandbox_<last4>`):
 * 4242424242424242 succeeds, 4000000000000002 is declined, 4000000000009995 has
 * insufficient funds. The card number itself never leaves the browser.
 */
import i18next from 'i18next';

export interface SandboxCard {
  number: string;
  expiry: string;
  cvc: string;
  name: string;
}

export const SANDBOX_TEST_CARDS = [
  { number: '4242 4242 4242 4242', outcome: 'deposit.testSucceeds' },
  { number: '4000 0000 0000 0002', outcome: 'deposit.testDeclined' },
  { number: '4000 0000 0000 9995', outcome: 'deposit.testInsufficient' },
] as const;

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return digits.length >= 12 && sum % 10 === 0;
}

export function formatCardNumber(value: string): string {
  return value
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

export function formatExpiry(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

export function cardErrors(card: SandboxCard, now: Date = new Date()): Partial<Record<keyof SandboxCard, string>> {
  const errors: Partial<Record<keyof SandboxCard, string>> = {};
  const digits = card.number.replace(/\s/g, '');
  if (!digits) errors.number = i18next.t('deposit.cardNumberRequired');
  else if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) errors.number = i18next.t('deposit.cardNumberInvalid');
  const match = /^(\d{2})\/(\d{2})$/.exec(card.expiry);
  if (!card.expiry) errors.expiry = i18next.t('deposit.expiryRequired');
  else if (!match) errors.expiry = i18next.t('deposit.expiryInvalid');
  else {
    const month = Number(match[1]);
    const year = 2000 + Number(match[2]);
    const endOfMonth = new Date(year, month, 1);
    if (month < 1 || month > 12) errors.expiry = i18next.t('deposit.expiryInvalid');
    else if (endOfMonth <= now) errors.expiry = i18next.t('deposit.cardExpired');
  }
  if (!card.cvc) errors.cvc = i18next.t('deposit.cvcRequired');
  else if (!/^\d{3,4}$/.test(card.cvc)) errors.cvc = i18next.t('deposit.cvcInvalid');
  if (!card.name.trim()) errors.name = i18next.t('deposit.nameRequired');
  return errors;
}

export function sandboxPaymentMethodId(cardNumber: string): string {
  return `pm_sandbox_${cardNumber.replace(/\D/g, '').slice(-4)}`;
}
