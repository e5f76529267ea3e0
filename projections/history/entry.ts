/**
 * One entry of a user's history, for a payment's own page: found only among the rows of that
 * user's account, so an id from anyone else's history reads as absent (no way to tell "not
 * yours" from "no such payment"). Also whether the movement was reversed since.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { AccountsTables } from '../accounts/tables.ts';
import { historyCountsOf } from './queries.ts';
import type { HistoryRow, HistoryTables } from './tables.ts';

/** The suffix of a reversal row's `_id` (api's toTransactionRecord gives it the original's id plus this). */
export const REVERSAL_ID_SUFFIX = '-reversal';

export interface HistoryEntry {
  row: Selectable<HistoryRow>;
  /** The user's own name (the other party's is on the row). */
  ownName: string;
  /** When this movement's reversal was recorded; null when it was not reversed (or this is the reversal). */
  reversedAt: Date | null;
}

/**
 * `entryId` as a history row shows it: a transaction id, or one with REVERSAL_ID_SUFFIX for
 * the reversal's own row. Ids compare case-insensitively, as the history's search does: in a
 * long history on the index over (account_id, lower(transaction_id)), which holds keyed rows
 * only (migration 0018); in a shorter one, whose rows are not keyed, by filtering its at most
 * `read.history_keys_after_rows()` rows. Each arm runs only for its kind of history (a
 * one-time filter on the kept counts).
 */
export async function readHistoryEntry(
  // accounts' directory too: the user's own name comes in the same statement as the rows.
  db: Kysely<HistoryTables> & Kysely<AccountsTables>,
  accountId: string,
  entryId: string,
): Promise<HistoryEntry | undefined> {
  const isReversal = entryId.endsWith(REVERSAL_ID_SUFFIX);
  const transactionId = isReversal ? entryId.slice(0, -REVERSAL_ID_SUFFIX.length) : entryId;
  const isEntry = sql`h.account_id = ${accountId} and lower(h.transaction_id) = lower(${transactionId})`;
  const { rows } = await sql<Selectable<HistoryRow> & { own_name: string | null }>`
    with counted as materialized (${historyCountsOf(accountId)})
    select h.*, d.display_name as own_name
      from (select * from read.history h where ${isEntry} and h.keyed and (select indexed from counted)
            union all
            select * from read.history h where ${isEntry} and not (select indexed from counted)) h
      left join read.directory d on d.account_id = h.account_id
     order by h.position`.execute(db);
  const row = rows.find((candidate) => (candidate.method === 'reversal') === isReversal);
  if (!row) return undefined;
  const reversal = isReversal ? undefined : rows.find((candidate) => candidate.method === 'reversal');
  const { own_name, ...history } = row;
  return { row: history, ownName: own_name ?? accountId, reversedAt: reversal?.created_at ?? null };
}
