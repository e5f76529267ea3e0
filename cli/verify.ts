/**
 * `ledger verify`'s printout: the trial balance per account kind and in total, then OK or
 * each difference (the check itself is audit/verify.ts).
 */
import type { VerifyReport } from '../audit/index.ts';
import { formatPaise } from '../contracts/money.ts';

export function formatVerifyReport(report: VerifyReport): string {
  const lines = ['Trial balance (from postings):'];
  for (const line of report.trialBalance) {
    lines.push(
      `  ${line.kind.padEnd(8)} ${String(line.accounts).padStart(7)} accounts  ${formatPaise(line.balancePaise).padStart(24)}  (${line.balancePaise} paise)`,
    );
  }
  lines.push(
    `  ${'total'.padEnd(8)} ${''.padStart(16)}  ${formatPaise(report.totalPaise).padStart(24)}  (${report.totalPaise} paise)`,
  );
  if (report.differences.length === 0)
    lines.push('OK: heads, balance projection and statements agree with the postings; every event sums to zero.');
  else
    lines.push(
      `FAILED: ${report.differences.length} difference(s):`,
      ...report.differences.map((difference) => `  - ${difference}`),
    );
  return lines.join('\n');
}
