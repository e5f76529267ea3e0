/**
 * Opening a wallet: its account head (balance 0) and a WalletOpened event. Called by
 * registration inside the same transaction that creates the user.
 */
import { sql } from 'kysely';
import { NO_STREAM, appendToStream, type AppendResult } from '../event-store/append.ts';
import { inTransaction, metadataFor, type CommandContext, type EventStore } from '../handle-command.ts';
import { reject } from '../rejections.ts';

export interface OpenWalletInput {
  accountId: string;
  displayName: string;
}

/**
 * Two writes (the head, then the event), so one transaction: the caller's, or its own. The
 * head is inserted by `ledger.open_wallet_account` (ledger/sql/open-wallet-account.sql), which runs as the
 * ledger's owner: the runtime role may not write ledger tables itself.
 */
export async function openWallet(
  store: EventStore,
  input: OpenWalletInput,
  ctx: CommandContext,
): Promise<AppendResult> {
  // Not batched: the head and the event must commit together, in this transaction.
  return inTransaction(store.db, async (trx) => {
    const { rows } = await sql<{
      opened: boolean;
    }>`select ledger.open_wallet_account(${input.accountId}) as opened`.execute(trx);
    if (!rows[0]?.opened) reject('account_exists', `Account ${input.accountId} already exists`);
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
