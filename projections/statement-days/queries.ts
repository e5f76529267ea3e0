/**
 * What the API reads of projection "statement_days": a wallet's days within a period, with the
 * balance it opened the period with, and the shapes the charts and statements want of them
 * (every day's closing balance, money in and out per month).
 *
 * Days are Asia/Kolkata calendar days written 'YYYY-MM-DD'; arithmetic on them is done on
 * UTC midnights, which has no daylight saving to skip a day.
 */
import { sql, type Kysely } from 'kysely';
import type { StatementDaysTables } from './tables.ts';

/** A period of whole days, both ends included. */
export interface StatementPeriod {
  accountId: string;
  /** 'YYYY-MM-DD' */
  from: string;
  /** 'YYYY-MM-DD', not before `from`. */
  to: string;
}

export interface StatementDay {
  day: string;
  moneyInPaise: bigint;
  moneyOutPaise: bigint;
  closingBalancePaise: bigint;
  postingsCount: bigint;
}

export interface StatementDays {
  /** The closing balance of the wallet's last day before the period (0 if none). */
  openingBalancePaise: bigint;
  /** The days of the period with postings, oldest first. */
  days: StatementDay[];
}

interface DayRow {
  day: string;
  money_in_paise: bigint;
  money_out_paise: bigint;
  closing_balance_paise: bigint;
  postings_count: bigint;
  before_period: boolean;
}

/**
 * The period's days and the opening balance in one statement (one snapshot, so they agree
 * while the projector writes), both by the (account_id, day) primary key.
 */
export async function readStatementDays(
  db: Kysely<StatementDaysTables>,
  period: StatementPeriod,
): Promise<StatementDays> {
  const { rows } = await sql<DayRow>`
    (select day::text as day, money_in_paise, money_out_paise, closing_balance_paise, postings_count,
            true as before_period
       from read.statement_days
      where account_id = ${period.accountId} and day < ${period.from}::date
      order by day desc limit 1)
    union all
    (select day::text, money_in_paise, money_out_paise, closing_balance_paise, postings_count, false
       from read.statement_days
      where account_id = ${period.accountId} and day between ${period.from}::date and ${period.to}::date
      order by day)`.execute(db);
  const opening = rows.find((row) => row.before_period);
  return {
    openingBalancePaise: opening?.closing_balance_paise ?? 0n,
    days: rows
      .filter((row) => !row.before_period)
      .map((row) => ({
        day: row.day,
        moneyInPaise: row.money_in_paise,
        moneyOutPaise: row.money_out_paise,
        closingBalancePaise: row.closing_balance_paise,
        postingsCount: row.postings_count,
      }))
      .sort((a, b) => a.day.localeCompare(b.day)),
  };
}

const DAY_MS = 86_400_000;

/** Every day from `from` to `to`, both included ('YYYY-MM-DD'). */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let time = Date.parse(`${from}T00:00:00Z`); time <= end; time += DAY_MS)
    days.push(new Date(time).toISOString().slice(0, 10));
  return days;
}

/** The closing balance of every day of the period: a day without postings keeps the day before's. */
export function dailyClosingBalances(
  period: Pick<StatementPeriod, 'from' | 'to'>,
  read: StatementDays,
): { day: string; closingBalancePaise: bigint }[] {
  const byDay = new Map(read.days.map((day) => [day.day, day.closingBalancePaise]));
  let balance = read.openingBalancePaise;
  return daysBetween(period.from, period.to).map((day) => {
    balance = byDay.get(day) ?? balance;
    return { day, closingBalancePaise: balance };
  });
}

export interface MonthTotals {
  /** 'YYYY-MM' */
  month: string;
  moneyInPaise: bigint;
  moneyOutPaise: bigint;
}

/** Money in and out per calendar month of the period (months without postings included, at zero). */
export function monthlyTotals(period: Pick<StatementPeriod, 'from' | 'to'>, read: StatementDays): MonthTotals[] {
  const months = new Map<string, MonthTotals>();
  for (const day of daysBetween(period.from, period.to)) {
    const month = day.slice(0, 7);
    if (!months.has(month)) months.set(month, { month, moneyInPaise: 0n, moneyOutPaise: 0n });
  }
  for (const day of read.days) {
    const totals = months.get(day.day.slice(0, 7));
    if (!totals) continue;
    totals.moneyInPaise += day.moneyInPaise;
    totals.moneyOutPaise += day.moneyOutPaise;
  }
  return [...months.values()];
}

/** The period's totals: what a statement's summary says. */
export function periodSummary(read: StatementDays): {
  openingBalancePaise: bigint;
  moneyInPaise: bigint;
  moneyOutPaise: bigint;
  closingBalancePaise: bigint;
  postingsCount: bigint;
} {
  let moneyInPaise = 0n;
  let moneyOutPaise = 0n;
  let postingsCount = 0n;
  for (const day of read.days) {
    moneyInPaise += day.moneyInPaise;
    moneyOutPaise += day.moneyOutPaise;
    postingsCount += day.postingsCount;
  }
  const closingBalancePaise = read.days.at(-1)?.closingBalancePaise ?? read.openingBalancePaise;
  return {
    openingBalancePaise: read.openingBalancePaise,
    moneyInPaise,
    moneyOutPaise,
    closingBalancePaise,
    postingsCount,
  };
}
