/**
 * Postgres column types that Kysely needs told how they arrive, shared by the engine's
 * checkpoints and the projections' rows (each projection's tables.ts).
 */
import type { ColumnType } from 'kysely';

/** xid8 has no pg type parser: it arrives as a decimal string. */
export type Xid8 = ColumnType<string, string, string>;
