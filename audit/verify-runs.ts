/**
 * The record of ledger verify runs (audit.verify_runs, migrations/0004_audit.ts): the CLI's
 * `verify` and the admin API's both write one, so the trial balance page can say when the
 * ledger was last checked and what was found.
 */
import { sql, type Kysely } from 'kysely';
import type { VerifyReport } from './verify.ts';
import type { VerifyRun } from '../contracts/admin.ts';
export type { VerifyRun } from '../contracts/admin.ts';


export async function recordVerifyRun(db: Kysely<unknown>, report: VerifyReport, source: string, durationMs: number): Promise<VerifyRun> {
  const trialBalance = report.trialBalance.map((line) => ({ kind: line.kind, accounts: line.accounts, balancePaise: line.balancePaise.toString() }));
  const { rows } = await sql<{ id: bigint; ran_at: Date }>`
    insert into audit.verify_runs (source, ok, differences, trial_balance, total_paise, duration_ms)
    values (${source}, ${report.differences.length === 0}, ${JSON.stringify(report.differences)}::jsonb, ${JSON.stringify(trialBalance)}::jsonb,
            ${report.totalPaise.toString()}::bigint, ${Math.round(durationMs)})
    returning id, ran_at`.execute(db);
  const row = rows[0];
  if (!row) throw new Error('verify run not recorded');
  return { id: String(row.id), ranAt: row.ran_at.toISOString(), source, ok: report.differences.length === 0, differences: report.differences, totalPaise: report.totalPaise.toString(), durationMs: Math.round(durationMs) };
}

