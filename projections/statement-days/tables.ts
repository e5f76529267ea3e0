/**
 * Row type of projection "statement_days"' read table (migrations/0001_baseline.ts),
 * as Kysely sees it. Only its rules (projector.apply_statement_days) write it.
 */

/** Projection "statement_days"' table: what its queries may read. */
export interface StatementDaysTables {
  'read.statement_days': StatementDayRow;
}

export interface StatementDayRow {
  account_id: string;
  /** The Asia/Kolkata calendar day, as 'YYYY-MM-DD' (the date type parsed as text: no time zone shifts). */
  day: string;
  money_in_paise: bigint;
  money_out_paise: bigint;
  /** The wallet's balance at the end of that day: every amount up to and including it. */
  closing_balance_paise: bigint;
  postings_count: bigint;
}
