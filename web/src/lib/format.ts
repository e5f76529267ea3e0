/**
 * Display formats: rupees in en-IN (contracts/money.ts), one date format (en-IN, India
 * Standard Time), and short ids (first 8 characters). In Hindi the same format with Hindi
 * month names (numbers keep Latin digits and Indian grouping in both).
 */
import { formatPaise, formatRupees as formatRupeesShared } from '../../../contracts/money.ts';
import { currentLanguage } from '../i18n/i18n.ts';
import { formatLocale } from '../i18n/language.ts';
import { balancePaise } from './money-input.ts';

const paiseFormat = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** en-IN rupees; an amount with paise always shows two decimals (₹1,250.50, not ₹1,250.5). */
export function formatRupees(rupees: number, options: { whole?: boolean } = {}): string {
  if (options.whole || Number.isInteger(rupees)) return formatRupeesShared(rupees, options);
  return `${rupees < 0 ? '-' : ''}₹${paiseFormat.format(Math.abs(rupees))}`;
}

/**
 * A balance, on every page the same way and to the paisa: ₹8,001.00, never ₹8,001 on one
 * page and ₹8,001.00 on another (amounts of single payments keep formatRupees).
 */
export function formatBalance(rupees: number): string {
  return formatPaise(balancePaise(rupees));
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

const hindiFormats = new Map<Intl.DateTimeFormat, Intl.DateTimeFormat>();

/** The English format itself, or the same fields and time zone in the chosen language (made once). */
function localized(english: Intl.DateTimeFormat): Intl.DateTimeFormat {
  const language = currentLanguage();
  if (language === 'en') return english;
  let format = hindiFormats.get(english);
  if (!format) {
    const { locale: _locale, calendar: _calendar, numberingSystem: _digits, ...fields } = english.resolvedOptions();
    // TypeScript types resolved options as plain strings; they are valid options by construction.
    format = new Intl.DateTimeFormat(formatLocale(language), fields as Intl.DateTimeFormatOptions);
    hindiFormats.set(english, format);
  }
  return format;
}

export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '-' : localized(dateTime).format(date);
}

export function shortId(id: string): string {
  return id.length > 8 ? `${id.slice(0, 8)}...` : id;
}

/**
 * A money movement's id cut short: its end. The server mints them as UUIDv7, whose start is
 * the time (shared by every transaction of the same minute) and whose end is random; history
 * search matches an id by its end too.
 */
export function idTail(id: string): string {
  return id.length > 8 ? `...${id.slice(-8)}` : id;
}
