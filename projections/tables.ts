/**
 * The read schema as Kysely sees it: each projection's tables (in its folder: AccountsTables,
 * HistoryTables, ...) and the checkpoints (the engine's). Only the projections' SQL rules write
 * these tables. Each projection's queries take a Kysely of its own tables only; a reader of
 * several (the API, user statements, audit, operations) holds ReadViews, which is each of them.
 */
import type { Kysely } from 'kysely';
import type { AccountsTables } from './accounts/tables.ts';
import type { HistoryTables } from './history/tables.ts';
import type { MoneyRequestsTables } from './money-requests/tables.ts';
import type { StatementDaysTables } from './statement-days/tables.ts';
import type { Xid8 } from './column-types.ts';

export type * from './accounts/tables.ts';
export type * from './history/tables.ts';
export type * from './money-requests/tables.ts';
export type * from './statement-days/tables.ts';

export interface CheckpointRow {
  projection: string;
  tx_id: Xid8;
  position: bigint;
  events_applied: bigint;
  updated_at: Date;
  last_error: string | null;
  last_error_at: Date | null;
}

/** The engine's table: how far each projection has applied the log. */
export interface CheckpointTables {
  'read.checkpoints': CheckpointRow;
}

/** Every read table: the checkpoints and each projection's. */
export interface ReadTables
  extends CheckpointTables, AccountsTables, HistoryTables, MoneyRequestsTables, StatementDaysTables {}

/**
 * The read tables for a reader of several projections. Kysely's types are invariant in the
 * table map (a Kysely<ReadTables> is not a Kysely<AccountsTables>), so this is a Kysely of
 * every read table and of each projection's own tables at once: it goes to any projection's
 * queries, and selectFrom on it sees every table.
 */
export type ReadViews = Kysely<ReadTables> &
  Kysely<CheckpointTables> &
  Kysely<AccountsTables> &
  Kysely<HistoryTables> &
  Kysely<MoneyRequestsTables> &
  Kysely<StatementDaysTables>;

/** `db` (the shared pool, as platform's tablesView) typed as ReadViews: no query changes, only its type. */
export function readViews(db: Kysely<unknown>): ReadViews {
  return db as unknown as ReadViews;
}
