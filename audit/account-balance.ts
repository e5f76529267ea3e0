/**
 * One account's balance three ways, for an operator who suspects one of them
 * (`npm run ledger -- balance ACCOUNT`): the sum of its postings (the truth), its head in
 * ledger.accounts (wallets only: funding accounts have none) and the balance projection.
 */
import { sql, type Kysely } from 'kysely';

export interface BalanceReport {
  accountId: string;
  /** Undefined: no such account. */
  kind: string | undefined;
  headPaise: bigint | null;
  postingsPaise: bigint;
  postings: bigint;
  projectedPaise: bigint | null;
}

export async function accountBalance(db: Kysely<unknown>, accountId: string): Promise<BalanceReport> {
  const { rows } = await sql<{
    kind: string | null;
    head: bigint | null;
    sum: string;
    count: bigint;
    projected: bigint | null;
  }>`
    select (select kind from ledger.accounts where id = ${accountId}) as kind,
           (select balance from ledger.accounts where id = ${accountId}) as head,
           (select coalesce(sum(amount), 0)::text from ledger.postings where account_id = ${accountId}) as sum,
           (select count(*) from ledger.postings where account_id = ${accountId}) as count,
           (select balance_paise from read.balances where account_id = ${accountId}) as projected`.execute(db);
  const row = rows[0];
  return {
    accountId,
    kind: row?.kind ?? undefined,
    headPaise: row?.head ?? null,
    postingsPaise: BigInt(row?.sum ?? '0'),
    postings: row?.count ?? 0n,
    projectedPaise: row?.projected ?? null,
  };
}
