/**
 * Commands that name a wallet without moving money yet (a pending deposit, a money
 * request) check here that the wallet exists; money-moving appends check it themselves.
 */
import type { LedgerDb } from '../handle-command.ts';
import { reject } from '../rejections.ts';

export async function requireWallet(db: LedgerDb, accountId: string): Promise<void> {
  const account = await db.selectFrom('ledger.accounts').select('kind').where('id', '=', accountId).executeTakeFirst();
  if (!account || account.kind !== 'wallet') reject('unknown_account', 'Account not found', { account: accountId });
}
