/**
 * The admin API's reply shapes come from contracts/admin.ts, shared with the server.
 */
export type {
  StatementLine,
  StatementPage,
  RawEvent,
  EventDetail,
  EventPosting,
  TrialBalance,
  AdminActionRecord,
  AuditTrailPage,
  ReplayRun,
  ProjectionState,
  ProjectionsOverview,
  RawEventPage,
  VerifyStarted,
} from '../../../../../contracts/admin.ts';

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
