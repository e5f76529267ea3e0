/**
 * Opening a wallet: its account head (balance 0) and a WalletOpened event. Called by
 * registration inside the same transaction that creates the user.
 */
import { NO_STREAM, appendToStream, type AppendResult } from '../event-store/append.ts';
import { inTransaction, metadataFor, type CommandContext, type LedgerDb } from '../handle-command.ts';
import { reject } from '../rejections.ts';

export interface OpenWalletInput {
  accountId: string;
  displayName: string;
}

/** Two writes (the head, then the event), so one transaction: the caller's, or its own. */
export async function openWallet(db: LedgerDb, input: OpenWalletInput, ctx: CommandContext): Promise<AppendResult> {
  return inTransaction(db, async (trx) => {
    const opened = await trx
      .insertInto('ledger.accounts')
      .values({ id: input.accountId, kind: 'wallet', allow_negative: false, balance: 0n, seq: 0n })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!opened) reject('account_exists', `Account ${input.accountId} already exists`);
    return appendToStream(trx, {
      streamId: walletStream(input.accountId),
      expectedVersion: NO_STREAM,
      events: [{ type: 'WalletOpened', data: { accountId: input.accountId, displayName: input.displayName.trim() } }],
      metadata: metadataFor('openWallet', ctx),
    });
  });
}

export function walletStream(accountId: string): string {
  return `wallet-${accountId}`;
}
