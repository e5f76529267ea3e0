/**
 * What an admin's money action would do if it ran now, decided by the same pure deciders
 * on the current state, with nothing appended: its stream, amount and wallets. The API
 * uses it for the four-eyes rule (an amount above the threshold waits for a second admin)
 * and to refuse early; the command decides again when it finally runs.
 */
import { isFundingAccount } from '../accounts.ts';
import { readStream } from '../event-store/read.ts';
import { decideSettleDeposit, depositStream, loadDeposit } from '../deposits/deposit.ts';
import type { LedgerDb } from '../handle-command.ts';
import type { Paise } from '../money.ts';
import { decideReversal, streamOfReversal, type ReverseInput } from './reverse.ts';

export type AdminMoneyAction = { action: 'settle'; depositId: string } | { action: 'reverse'; reversal: ReverseInput };

export interface AdminActionPreview {
  streamId: string;
  amountPaise: Paise;
  /** The wallets whose balance the action would change. */
  walletIds: string[];
  /** Those it would credit (the deposit's wallet; a reversal's original sender or payer). */
  creditedWalletIds: string[];
}

/** Throws the rejection the command would throw (not pending, already reversed, the admin is a party...). */
export async function previewAdminAction(
  db: LedgerDb,
  action: AdminMoneyAction,
  adminId: string,
): Promise<AdminActionPreview> {
  if (action.action === 'settle') {
    const settled = decideSettleDeposit(await loadDeposit(db, action.depositId), { by: 'admin', adminId });
    return {
      streamId: depositStream(action.depositId),
      amountPaise: settled.data.amountPaise,
      walletIds: [settled.data.walletId],
      creditedWalletIds: [settled.data.walletId],
    };
  }
  const streamId = streamOfReversal(action.reversal.kind, action.reversal.transactionId);
  const reversal = decideReversal(
    action.reversal.kind,
    await readStream(db, streamId),
    action.reversal.reason,
    adminId,
  );
  const wallets = reversal.postings.filter((posting) => !isFundingAccount(posting.accountId));
  return {
    streamId,
    amountPaise: reversal.data.amountPaise,
    walletIds: wallets.map((posting) => posting.accountId),
    creditedWalletIds: wallets.filter((posting) => posting.amountPaise > 0n).map((posting) => posting.accountId),
  };
}
