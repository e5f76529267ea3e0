/**
 * What a projection is: a name, the read tables it alone writes, and the SQL function that
 * holds its rules (`projector.apply_<name>`, projections/<name>/rules.sql): given a
 * schema (`read`, or the projection's rebuild schema during a replay) and a range of
 * committed events, it applies them to those tables with a few set-based statements.
 * The live projector and replay call the same function, inside the batch's transaction.
 */
import { sql } from 'kysely';
import type { LedgerEventType } from '../../ledger/index.ts';
import type { AnyTransaction, EventRange } from './event-range.ts';

export interface Projection {
  name: ProjectionName;
  /** The read tables it owns, in the order a replay's swap locks them (readers that take
   * several in one transaction must take them in this order). */
  tables: readonly string[];
  /**
   * The event types its rules read: those its rules.sql names, and every type that carries
   * postings when the rules read the postings (projections/handles.test.ts holds the two equal).
   */
  handles: readonly LedgerEventType[];
  /**
   * Tables the projection only ever inserts into (no upsert, update or lookup by key): a
   * replay loads them without their primary and unique keys and adds those after (the same
   * uniqueness check, made once over sorted rows instead of row by row).
   */
  insertOnlyTables?: readonly string[];
  /**
   * A replay's set-based load, when the projection has one: `projector.<bulkReplay>(to_tx,
   * to_position, parts, part)` fills the rebuild tables with what the rule would give applied
   * from the first event up to (to_tx, to_position), for the part `part` of `parts` (replay
   * loads the parts at once, on as many connections). Without one, replay applies the rule
   * chunk by chunk.
   */
  bulkReplay?: string;
  /**
   * Tables the set-based load fills without needing their primary and unique keys (it never
   * upserts into them) while the rule, applied chunk by chunk after it, does: a replay adds
   * those keys between the two, built once over the loaded rows instead of row by row in the
   * load's order, which is not the keys' order.
   */
  keysAfterBulkLoad?: readonly string[];
  /**
   * No command's reply waits for it (decision 0004): a read of it catches up first (the read
   * router), and the live events, which tell of nothing it holds, do not wait for it either
   * (the checkpoint waiter's advances).
   */
  deferred?: true;
  /**
   * Work no reply waits for, done after the rounds commit in transactions of their own:
   * `projector.<afterRounds>(limit)` does up to about `limit` units of it and returns how many
   * it did, 0 when none is left. Live tables only; what a replay's tail leaves for it is done
   * after the swap.
   */
  afterRounds?: string;
}

export const PROJECTION_NAMES = ['accounts', 'history', 'money_requests', 'statement_days'] as const;
export type ProjectionName = (typeof PROJECTION_NAMES)[number];

export function isProjectionName(value: string): value is ProjectionName {
  return (PROJECTION_NAMES as readonly string[]).includes(value);
}

/** Applies the events of `range` to the projection's tables in `schema`, within the caller's transaction. */
export async function applyRange(
  trx: AnyTransaction,
  projection: Projection,
  schema: string,
  range: EventRange,
): Promise<void> {
  await sql`select ${sql.id('projector', `apply_${projection.name}`)}(
    ${schema}::text,
    ${range.from.txId.toString()}::xid8, ${range.from.position.toString()}::bigint,
    ${range.to.txId.toString()}::xid8, ${range.to.position.toString()}::bigint)`.execute(trx);
}
