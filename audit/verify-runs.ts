/**
 * The record of ledger verify runs (audit.verify_runs, migrations/0001_baseline.ts): the CLI's
 * `verify` and the admin API's both write one, so the trial balance page can say when the
 * ledger was last checked and what was found.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { VerifyRun } from '../contracts/admin.ts';
import { verifyLedger, type VerifyReport } from './verify.ts';

/** The check and how long it took: what a run records. */
export async function timedVerify(db: Kysely<unknown>): Promise<{ report: VerifyReport; durationMs: number }> {
  const started = performance.now();
  const report = await verifyLedger(db);
  return { report, durationMs: performance.now() - started };
}

/** Runs the same check as `npm run ledger -- verify` and records it. */
export async function runVerify(db: Kysely<unknown>, source: string): Promise<VerifyRun> {
  const { report, durationMs } = await timedVerify(db);
  return recordVerifyRun(db, report, source, durationMs);
}

/**
 * Starts a verify without waiting for it; returns the latest run before it, so a caller can
 * tell its result (the first run with a larger id). A run that throws is recorded as failed,
 * with the error as its one difference: whoever waits for a result always gets one.
 */
export async function startVerify(
  db: Kysely<unknown>,
  source: string,
  onError: (error: unknown) => void,
): Promise<{ state: 'running'; previousRunId: string | null }> {
  const previous = await lastVerifyRun(db);
  const started = performance.now();
  void runVerify(db, source).catch(async (error: unknown) => {
    onError(error);
    const report = {
      differences: [`The verify run did not finish: ${String(error)}`],
      trialBalance: [],
      totalPaise: 0n,
    };
    await recordVerifyRun(db, report, source, performance.now() - started).catch(onError);
  });
  return { state: 'running', previousRunId: previous?.id ?? null };
}

export async function recordVerifyRun(
  db: Kysely<unknown>,
  report: VerifyReport,
  source: string,
  durationMs: number,
): Promise<VerifyRun> {
  const trialBalance = report.trialBalance.map((line) => ({
    kind: line.kind,
    accounts: line.accounts,
    balancePaise: line.balancePaise.toString(),
  }));
  const { rows } = await sql<{ id: bigint; ran_at: Date }>`
    insert into audit.verify_runs (source, ok, differences, trial_balance, total_paise, duration_ms)
    values (${source}, ${report.differences.length === 0}, ${JSON.stringify(report.differences)}::jsonb, ${JSON.stringify(trialBalance)}::jsonb,
            ${report.totalPaise.toString()}::bigint, ${Math.round(durationMs)})
    returning id, ran_at`.execute(db);
  const row = rows[0];
  if (!row) throw new Error('verify run not recorded');
  return {
    id: String(row.id),
    ranAt: row.ran_at.toISOString(),
    source,
    ok: report.differences.length === 0,
    differences: report.differences,
    totalPaise: report.totalPaise.toString(),
    durationMs: Math.round(durationMs),
  };
}

export async function lastVerifyRun(db: Kysely<unknown> | Transaction<unknown>): Promise<VerifyRun | null> {
  const { rows } = await sql<{
    id: bigint;
    ran_at: Date;
    source: string;
    ok: boolean;
    differences: string[];
    total_paise: bigint;
    duration_ms: number;
  }>`
    select id, ran_at, source, ok, differences, total_paise, duration_ms from audit.verify_runs order by id desc limit 1`.execute(
    db,
  );
  const row = rows[0];
  return row
    ? {
        id: String(row.id),
        ranAt: row.ran_at.toISOString(),
        source: row.source,
        ok: row.ok,
        differences: row.differences,
        totalPaise: String(row.total_paise),
        durationMs: row.duration_ms,
      }
    : null;
}
