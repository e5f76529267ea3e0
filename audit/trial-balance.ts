/**
 * Trial balance for operators: the sum of postings per account kind and in total (zero, or
 * the ledger is broken), the funding-source balance per deposit method (minus what came in
 * through it), and the last run of the full check `npm run ledger -- verify` performs
 * (cli/verify.ts `verifyLedger`), which the API can also run and which is recorded in
 * audit.verify_runs with its time.
 */
import { sql, type Kysely } from 'kysely';
import { rupeesFromPaise } from '../contracts/money.ts';
import { verifyLedger } from './verify.ts';
import { recordVerifyRun, type VerifyRun } from './verify-runs.ts';
import { DEPOSIT_METHODS, fundingAccount } from '../ledger/index.ts';
import type { TrialBalance } from '../contracts/admin.ts';
export type { TrialBalance } from '../contracts/admin.ts';



export async function readTrialBalance(db: Kysely<unknown>): Promise<TrialBalance> {
  // One snapshot: per-kind and funding sums must describe the same postings.
  return db.transaction().setIsolationLevel('repeatable read').execute(async (trx) => {
    const kinds = await sql<{ kind: string; accounts: number; balance: string }>`
      select a.kind, count(*)::int as accounts, coalesce(sum(p.sum), 0)::text as balance
        from ledger.accounts a
        left join (select account_id, sum(amount) as sum from ledger.postings group by account_id) p on p.account_id = a.id
       group by a.kind order by a.kind`.execute(trx);
    const funding = await sql<{ account_id: string; balance: string; postings: number }>`
      select account_id, sum(amount)::text as balance, count(*)::int as postings
        from ledger.postings where account_id = any(${DEPOSIT_METHODS.map(fundingAccount)}::text[]) group by account_id`.execute(trx);
    const totalPaise = kinds.rows.reduce((sum, row) => sum + BigInt(row.balance), 0n);
    return {
      byKind: kinds.rows.map((row) => ({ kind: row.kind, accounts: row.accounts, balance: rupeesFromPaise(BigInt(row.balance)), balancePaise: row.balance })),
      total: rupeesFromPaise(totalPaise),
      totalPaise: totalPaise.toString(),
      balanced: totalPaise === 0n,
      fundingSources: DEPOSIT_METHODS.map((method) => {
        const row = funding.rows.find((candidate) => candidate.account_id === fundingAccount(method));
        const paise = BigInt(row?.balance ?? '0');
        return { method, accountId: fundingAccount(method), balance: rupeesFromPaise(paise), balancePaise: paise.toString(), postings: row?.postings ?? 0 };
      }),
      lastVerify: await lastVerifyRun(trx),
    };
  });
}

/** Runs the same check as `npm run ledger -- verify` and records it. */
export async function runVerify(db: Kysely<unknown>, source: string): Promise<VerifyRun> {
  const started = performance.now();
  const report = await verifyLedger(db);
  return recordVerifyRun(db, report, source, performance.now() - started);
}

async function lastVerifyRun(db: Kysely<unknown>): Promise<VerifyRun | null> {
  const { rows } = await sql<{ id: bigint; ran_at: Date; source: string; ok: boolean; differences: string[]; total_paise: bigint; duration_ms: number }>`
    select id, ran_at, source, ok, differences, total_paise, duration_ms from audit.verify_runs order by id desc limit 1`.execute(db);
  const row = rows[0];
  return row
    ? { id: String(row.id), ranAt: row.ran_at.toISOString(), source: row.source, ok: row.ok, differences: row.differences, totalPaise: String(row.total_paise), durationMs: row.duration_ms }
    : null;
}
