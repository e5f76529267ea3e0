/**
 * Trial balance for operators: the sum of postings per account kind and in total (zero, or
 * the ledger is broken), the funding-source balance per deposit method (minus what came in
 * through it), and the last run of the full check (audit/verify.ts, `npm run ledger --
 * verify` or the admin's "verify now"), recorded in audit.verify_runs with its time.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { TrialBalance } from '../contracts/admin.ts';
import { rupeesFromPaise } from '../contracts/money.ts';
import { DEPOSIT_METHODS, fundingAccount } from '../ledger/index.ts';
import { totalOf, trialBalanceByKind } from './verify.ts';
import { lastVerifyRun } from './verify-runs.ts';

export async function readTrialBalance(db: Kysely<unknown>): Promise<TrialBalance> {
  // One snapshot: per-kind and funding sums must describe the same postings.
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const kinds = await trialBalanceByKind(trx);
      const totalPaise = totalOf(kinds);
      return {
        byKind: kinds.map((line) => ({
          kind: line.kind,
          accounts: line.accounts,
          balance: rupeesFromPaise(line.balancePaise),
          balancePaise: line.balancePaise.toString(),
        })),
        total: rupeesFromPaise(totalPaise),
        totalPaise: totalPaise.toString(),
        balanced: totalPaise === 0n,
        fundingSources: await fundingSources(trx),
        lastVerify: await lastVerifyRun(trx),
      };
    });
}

/** Every deposit method, with or without postings yet. */
async function fundingSources(trx: Transaction<unknown>): Promise<TrialBalance['fundingSources']> {
  const funding = await sql<{ account_id: string; balance: string; postings: number }>`
    select account_id, sum(amount)::text as balance, count(*)::int as postings
      from ledger.postings where account_id = any(${DEPOSIT_METHODS.map(fundingAccount)}::text[]) group by account_id`.execute(
    trx,
  );
  return DEPOSIT_METHODS.map((method) => {
    const row = funding.rows.find((candidate) => candidate.account_id === fundingAccount(method));
    const paise = BigInt(row?.balance ?? '0');
    return {
      method,
      accountId: fundingAccount(method),
      balance: rupeesFromPaise(paise),
      balancePaise: paise.toString(),
      postings: row?.postings ?? 0,
    };
  });
}
