/**
 * Account identities. A wallet's account id is its owner's user id (the spec's account
 * number). Money entering from outside is drawn from one funding account per deposit method.
 */
export const DEPOSIT_METHODS = ['bank_transfer', 'upi', 'card'] as const;
export type DepositMethod = (typeof DEPOSIT_METHODS)[number];

export type AccountId = string;

export function fundingAccount(method: DepositMethod): AccountId {
  return `funding:${method}`;
}

export function isFundingAccount(accountId: AccountId): boolean {
  return accountId.startsWith('funding:');
}
