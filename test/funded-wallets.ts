/**
 * Wallets opened and funded through the ledger's own commands (a settled card deposit each),
 * one after the other: the starting scene of the tests that move money between a few wallets.
 */
import type { Ledger, Paise } from '../ledger/index.ts';

export async function openFundedWallets(
  ledger: Pick<Ledger, 'openWallet' | 'completeCardDeposit'>,
  ids: readonly string[],
  amountPaise: Paise,
): Promise<void> {
  for (const id of ids) {
    await ledger.openWallet({ accountId: id, displayName: id }, { actorId: id });
    await ledger.completeCardDeposit(
      { depositId: `seed-${id}`, walletId: id, amountPaise, reference: 'seed', provider: 'sandbox', paymentId: id },
      { actorId: 'provider:card' },
    );
  }
}
