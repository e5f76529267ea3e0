/**
 * Display formats: rupees in en-IN (contracts/money.ts), one date format (en-IN, India
 * Standard Time), and short ids (first 8 characters).
 */
import { formatRupees as formatRupeesShared } from '../../../contracts/money.ts';

const paiseFormat = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** en-IN rupees; an amount with paise always shows two decimals (₹1,250.50, not ₹1,250.5). */
export function formatRupees(rupees: number, options: { whole?: boolean } = {}): string {
  if (options.whole || Number.isInteger(rupees)) return formatRupeesShared(rupees, options);
  return `${rupees < 0 ? '-' : ''}₹${paiseFormat.format(Math.abs(rupees))}`;
}

/**
 * The one date format of the app: en-IN day, short month and year, 12-hour time, always in
 * India Standard Time whatever the device's zone ("27 Nov 2026, 7:39 pm"), so a list, a card
 * and a dialog never show one moment three ways.
 */
const dateTime = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'Asia/Kolkata',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
});

export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '-' : dateTime.format(date);
}

export function shortId(id: string): string {
  return id.length > 8 ? `${id.slice(0, 8)}...` : id;
}
