/**
 * The admin API's reply shapes, taken from the server modules as types only (erased at
 * build, so no server code reaches the bundle): one source of truth for both sides.
 */
export type { StatementLine, StatementPage, RawEvent } from '../../../../../api/admin/account-audit.ts';
export type { EventDetail, EventPosting } from '../../../../../api/admin/explorer.ts';
export type { TrialBalance } from '../../../../../api/admin/trial-balance.ts';
export type { AdminActionRecord, AuditTrailPage } from '../../../../../api/admin/audit-trail.ts';
export type { ReplayRun } from '../../../../../projections/replay-jobs.ts';

import type { RawEvent } from '../../../../../api/admin/account-audit.ts';

export interface RawEventPage {
  items: RawEvent[];
  nextAfter: string | null;
}

/** Statement and explorer filters as the query string carries them (empty = no filter). */
export interface StatementFilters {
  from: string;
  to: string;
  type: string;
}

/** A date input's day (YYYY-MM-DD) as an ISO instant; `to` is exclusive, so it is the next day's start. */
export function dayToIso(day: string, endOfDay = false): string | undefined {
  if (!day) return undefined;
  const date = new Date(`${day}T00:00:00`);
  if (Number.isNaN(date.getTime())) return undefined;
  if (endOfDay) date.setDate(date.getDate() + 1);
  return date.toISOString();
}
