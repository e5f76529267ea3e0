/**
 * Projection "accounts": the directory of display names, every account's balance (funding
 * accounts have no maintained head in the ledger, so their balances exist only here) and
 * per-account statements with a running balance.
 *
 * A wallet posting's running balance is the ledger's own `balance_after` (taken under the
 * wallet's row lock). A funding posting's running balance is the sum in projection order,
 * which is the same for an incremental run and a replay. Balances are sums of amounts, never
 * a last `balance_after`: read order is (tx_id, position), not the order of the row locks.
 */
import { sql } from 'kysely';
import type { ProjectedEvent, AnyTransaction } from './event-batch.ts';
import { insertMissingRows, insertRows, table, upsertRows, type Columns } from './bulk.ts';
import { nameOf, resolveNames, FUNDING_NAMES } from './names.ts';
import { transactionIdOf, type Projection } from './definition.ts';

const DIRECTORY: Columns = [
  ['account_id', 'text'],
  ['display_name', 'text'],
  ['kind', 'text'],
  ['opened_at', 'timestamptz'],
];
const BALANCES: Columns = [
  ['account_id', 'text'],
  ['balance_paise', 'bigint'],
  ['postings_count', 'bigint'],
  ['last_position', 'bigint'],
  ['updated_at', 'timestamptz'],
];
const STATEMENTS: Columns = [
  ['account_id', 'text'],
  ['position', 'bigint'],
  ['tx_id', 'xid8'],
  ['sequence', 'bigint'],
  ['event_type', 'text'],
  ['stream_id', 'text'],
  ['transaction_id', 'text'],
  ['counterparty_id', 'text'],
  ['counterparty_name', 'text'],
  ['amount_paise', 'bigint'],
  ['balance_after_paise', 'bigint'],
  ['recorded_at', 'timestamptz'],
];

interface BalanceState {
  account_id: string;
  balance_paise: bigint;
  postings_count: bigint;
  last_position: bigint | null;
  updated_at: Date;
}

async function loadBalances(
  trx: AnyTransaction,
  schema: string,
  accountIds: string[],
): Promise<Map<string, BalanceState>> {
  const { rows } = await sql<BalanceState>`
    select account_id, balance_paise, postings_count, last_position, updated_at
      from ${table(schema, 'balances')} where account_id = any(${accountIds}::text[])`.execute(trx);
  return new Map(rows.map((row) => [row.account_id, row]));
}

function touchedAccounts(events: readonly ProjectedEvent[]): string[] {
  const ids = new Set<string>();
  for (const event of events) {
    if (event.type === 'WalletOpened') ids.add(event.data.accountId);
    for (const posting of event.postings) ids.add(posting.account_id);
  }
  return [...ids];
}

async function apply(trx: AnyTransaction, schema: string, events: readonly ProjectedEvent[]): Promise<void> {
  const accountIds = touchedAccounts(events);
  const balances = await loadBalances(trx, schema, accountIds);
  const names = await resolveNames(trx, accountIds);
  const wallets: object[] = [];
  const funding: object[] = [];
  const statements: object[] = [];
  const changed = new Set<string>();
  const stateOf = (accountId: string, at: Date): BalanceState => {
    const existing = balances.get(accountId);
    if (existing) return existing;
    const fresh: BalanceState = {
      account_id: accountId,
      balance_paise: 0n,
      postings_count: 0n,
      last_position: null,
      updated_at: at,
    };
    balances.set(accountId, fresh);
    return fresh;
  };
  for (const event of events) {
    if (event.type === 'WalletOpened') {
      wallets.push({
        account_id: event.data.accountId,
        display_name: event.data.displayName,
        kind: 'wallet',
        opened_at: event.recordedAt,
      });
      stateOf(event.data.accountId, event.recordedAt);
      changed.add(event.data.accountId);
    }
    for (const posting of event.postings) {
      const state = stateOf(posting.account_id, event.recordedAt);
      state.balance_paise += posting.amount;
      state.postings_count += 1n;
      state.last_position = event.position;
      state.updated_at = event.recordedAt;
      changed.add(posting.account_id);
      const other =
        event.postings.length === 2 ? event.postings.find((p) => p.account_id !== posting.account_id) : undefined;
      if (FUNDING_NAMES[posting.account_id]) {
        funding.push({
          account_id: posting.account_id,
          display_name: nameOf(names, posting.account_id),
          kind: 'funding',
          opened_at: event.recordedAt,
        });
      }
      statements.push({
        account_id: posting.account_id,
        position: event.position,
        tx_id: event.txId,
        sequence: posting.account_seq ?? state.postings_count,
        event_type: event.type,
        stream_id: event.streamId,
        transaction_id: transactionIdOf(event),
        counterparty_id: other?.account_id ?? null,
        counterparty_name: other ? nameOf(names, other.account_id) : null,
        amount_paise: posting.amount,
        balance_after_paise: posting.balance_after ?? state.balance_paise,
        recorded_at: event.recordedAt,
      });
    }
  }
  await insertRows(trx, table(schema, 'directory'), DIRECTORY, wallets);
  await insertMissingRows(trx, table(schema, 'directory'), DIRECTORY, funding);
  await upsertRows(
    trx,
    table(schema, 'balances'),
    BALANCES,
    ['account_id'],
    [...changed].map((id) => balances.get(id)).filter((row) => row !== undefined),
  );
  await insertRows(trx, table(schema, 'statements'), STATEMENTS, statements);
}

export const accountsProjection: Projection = {
  name: 'accounts',
  tables: ['directory', 'balances', 'statements'],
  insertOnlyTables: ['statements'],
  apply,
};
