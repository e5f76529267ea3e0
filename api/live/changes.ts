/**
 * What the live updates stream reads once per projection advance, for every open stream at
 * once: the ledger's events in a checkpoint range (the projectors' own read order, on the
 * events_tx_order index), and from the read tables the senders' names and the balances to
 * show. Read from the primary: the checkpoint that announced the range is the primary's.
 */
import { sql, type Kysely } from 'kysely';
import type { LedgerEventType } from '../../ledger/index.ts';
import { AWAITED_PROJECTIONS, type Checkpoint } from '../../projections/index.ts';

export interface LedgerChange {
  checkpoint: Checkpoint;
  /** The ledger's type, so a case that names a type the ledger does not have fails to compile. */
  type: LedgerEventType;
  data: Record<string, unknown>;
}

/** Events after `from` up to and including `to`, at most `limit`, in read order. */
export async function readChanges(
  db: Kysely<unknown>,
  from: Checkpoint,
  to: Checkpoint,
  limit: number,
): Promise<LedgerChange[]> {
  const fromTx = from.txId.toString();
  const toTx = to.txId.toString();
  const { rows } = await sql<{ tx_id: string; position: string; type: LedgerEventType; data: Record<string, unknown> }>`
    select e.tx_id::text as tx_id, e.position::text as position, e.type, e.data
      from ledger.events e
     where e.tx_id between ${fromTx}::xid8 and ${toTx}::xid8
       and (e.tx_id, e.position) > (${fromTx}::xid8, ${from.position.toString()}::bigint)
       and (e.tx_id, e.position) <= (${toTx}::xid8, ${to.position.toString()}::bigint)
     order by e.tx_id, e.position
     limit ${limit}`.execute(db);
  return rows.map((row) => ({
    checkpoint: { txId: BigInt(row.tx_id), position: BigInt(row.position) },
    type: row.type,
    data: row.data,
  }));
}

/** Display names of accounts (read.directory), by id. */
export async function readNames(db: Kysely<unknown>, accountIds: readonly string[]): Promise<Map<string, string>> {
  if (accountIds.length === 0) return new Map();
  const { rows } = await sql<{ account_id: string; display_name: string }>`
    select account_id, display_name from read.directory where account_id = any(${[...accountIds]}::text[])`.execute(db);
  return new Map(rows.map((row) => [row.account_id, row.display_name]));
}

/** Wallet balances in paise (read.balances), by id. */
export async function readBalancesOf(db: Kysely<unknown>, accountIds: readonly string[]): Promise<Map<string, bigint>> {
  if (accountIds.length === 0) return new Map();
  const { rows } = await sql<{ account_id: string; balance_paise: string }>`
    select account_id, balance_paise::text as balance_paise
      from read.balances where account_id = any(${[...accountIds]}::text[])`.execute(db);
  return new Map(rows.map((row) => [row.account_id, BigInt(row.balance_paise)]));
}

/**
 * The slowest checkpoint of the projections replies wait for (as the checkpoint waiter's
 * advances): where a stream starts when the hub has heard none yet.
 */
export async function readLowestCheckpoint(db: Kysely<unknown>): Promise<Checkpoint> {
  const { rows } = await sql<{ tx_id: string; position: string }>`
    select tx_id::text as tx_id, position::text as position
      from read.checkpoints where projection = any(${AWAITED_PROJECTIONS}::text[])
     order by tx_id, position limit 1`.execute(db);
  const row = rows[0];
  return row ? { txId: BigInt(row.tx_id), position: BigInt(row.position) } : { txId: 0n, position: 0n };
}
