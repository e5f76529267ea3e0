/**
 * Display formats: rupees in en-IN (contracts/money.ts), one date format (en-IN, India
 * Standard Time), chart days and months, and short ids (first 8 characters). In Hindi the same
 * format with Hindi month names and am/pm in Hindi (numbers keep Latin digits and Indian
 * grouping in both).
 */
import i18next from 'i18next';
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
  if (Number.isNaN(date.getTime())) return '-';
  if (currentLanguage() === 'en') return dateTime.format(date);
  // Hindi's Intl data keeps "am"/"pm" in Latin letters: said in Hindi instead.
  return localized(dateTime)
    .formatToParts(date)
    .map((part) => (part.type === 'dayPeriod' ? dayPeriodWords(part.value) : part.value))
    .join('');
}

function dayPeriodWords(value: string): string {
  return i18next.t(value.toLowerCase().startsWith('a') ? 'time.am' : 'time.pm');
}

/** Chart labels: a calendar day as "27 Nov", a month as "Nov 26", in the chosen language. */
const dayOfMonth = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const monthOfYear = new Intl.DateTimeFormat('en-IN', { month: 'short', year: '2-digit', timeZone: 'UTC' });

/** "2026-11-27" -> "27 Nov" (English), "27 नव॰" (Hindi). */
export function formatDay(day: string): string {
  return localized(dayOfMonth).format(new Date(`${day}T00:00:00Z`));
}

/** "2026-11" -> "Nov 26" (English), "नव॰ 26" (Hindi). */
export function formatMonth(month: string): string {
  return localized(monthOfYear).format(new Date(`${month}-01T00:00:00Z`));
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
