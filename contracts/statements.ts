/**
 * The wire format of a user's own statement: the period a request names (whole
 * Asia/Kolkata calendar days, both ends included, at most a year and a day), the charts'
 * JSON, and the Transactions page's optional date filter. Shared by the API and the web app.
 */
import { z } from 'zod';
import { boundedText, documentLanguage } from './fields.ts';

/** The longest period one statement or chart covers: a leap year. */
export const MAX_STATEMENT_DAYS = 366;

/** The statement's days are India Standard Time days (no daylight saving: a fixed offset). */
export const STATEMENT_TIME_ZONE = 'Asia/Kolkata';
export const STATEMENT_UTC_OFFSET = '+05:30';

const DAY_MS = 86_400_000;

/** A calendar date 'YYYY-MM-DD' that exists (no 31 February). */
export const calendarDate = boundedText({
  required: 'Date is required',
  max: 'YYYY-MM-DD'.length,
  tooLong: 'Dates are written YYYY-MM-DD',
  trim: true,
})
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates are written YYYY-MM-DD')
  .refine((text) => {
    const time = Date.parse(`${text}T00:00:00Z`);
    return Number.isFinite(time) && new Date(time).toISOString().slice(0, 10) === text;
  }, 'Not a calendar date')
  .refine((text) => text >= '2000-01-01' && text <= '2999-12-31', 'Date out of range');

/** Days from `from` to `to`, both included (1 for a single day). */
export function periodLength(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** The instant a Kolkata calendar day begins. */
export function dayStart(day: string): Date {
  return new Date(`${day}T00:00:00${STATEMENT_UTC_OFFSET}`);
}

/** The instant after a Kolkata calendar day ends (the next day's start). */
export function dayEnd(day: string): Date {
  return new Date(dayStart(day).getTime() + DAY_MS);
}

/** Today's date in Kolkata ('YYYY-MM-DD'). */
export function kolkataToday(now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: STATEMENT_TIME_ZONE }).format(now);
}

/** `day` moved by `days` (negative: back). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

export const statementPeriodSchema = z
  .object({ from: calendarDate, to: calendarDate })
  .refine((period) => period.from <= period.to, { message: 'The start date must not be after the end date' })
  .refine((period) => periodLength(period.from, period.to) <= MAX_STATEMENT_DAYS, {
    message: `A statement covers at most ${MAX_STATEMENT_DAYS} days`,
  });
export type StatementPeriodQuery = z.infer<typeof statementPeriodSchema>;

/** The statement PDF's query: the period, and the language its words are in (the reader's in the web app). */
export const statementPdfQuerySchema = statementPeriodSchema.safeExtend({ lang: documentLanguage });

/** The Transactions page's date filter: both ends or neither (checked like a statement period). */
export const historyDateFilter = {
  from: calendarDate.optional(),
  to: calendarDate.optional(),
};

export const dailyBalanceSchema = z.object({
  /** 'YYYY-MM-DD' */
  date: z.string(),
  /** Rupees: the wallet's balance at the end of that day. */
  balance: z.number(),
});

export const monthlyTotalsSchema = z.object({
  /** 'YYYY-MM' */
  month: z.string(),
  moneyIn: z.number(),
  moneyOut: z.number(),
});

/** GET /api/transactions/statement/charts: the data of the dashboard's charts, in rupees. */
export const statementChartsSchema = z.object({
  from: z.string(),
  to: z.string(),
  timeZone: z.literal(STATEMENT_TIME_ZONE),
  openingBalance: z.number(),
  closingBalance: z.number(),
  moneyIn: z.number(),
  moneyOut: z.number(),
  daily: z.array(dailyBalanceSchema),
  monthly: z.array(monthlyTotalsSchema),
});
export type StatementCharts = z.infer<typeof statementChartsSchema>;
