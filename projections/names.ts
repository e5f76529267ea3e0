/**
 * Display names of accounts as the projections show them. A wallet's name is in its
 * WalletOpened event; it is read from the log (not from another projection's table), so a
 * projection never depends on how far another one has got, and a replay sees the same names.
 */
import { sql } from 'kysely';
import { walletStream } from '../ledger/index.ts';
import type { AnyTransaction } from './event-batch.ts';

export const FUNDING_NAMES: Readonly<Record<string, string>> = {
  'funding:bank_transfer': 'Bank transfer',
  'funding:upi': 'UPI',
  'funding:card': 'Card',
};

export type Names = ReadonlyMap<string, string>;

export async function resolveNames(trx: AnyTransaction, accountIds: Iterable<string>): Promise<Names> {
  const names = new Map<string, string>();
  const wallets: string[] = [];
  for (const id of new Set(accountIds)) {
    const funding = FUNDING_NAMES[id];
    if (funding) names.set(id, funding);
    else wallets.push(id);
  }
  if (wallets.length > 0) {
    const { rows } = await sql<{ account_id: string; display_name: string }>`
      select data->>'accountId' as account_id, data->>'displayName' as display_name
        from ledger.events
       where stream_id = any(${wallets.map(walletStream)}::text[]) and type = 'WalletOpened'`.execute(trx);
    for (const row of rows) names.set(row.account_id, row.display_name);
  }
  return names;
}

/** The name to show; an account with no WalletOpened (never expected) shows its id. */
export function nameOf(names: Names, accountId: string): string {
  return names.get(accountId) ?? accountId;
}
