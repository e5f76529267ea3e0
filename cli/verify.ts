/**
 * `ledger verify`'s printout: the trial balance per account kind and in total, then OK or
 * each difference (the check itself is audit/verify.ts).
 */
import { rupeesText, type VerifyReport } from '../audit/index.ts';

/** "-₹900.00": exact paise, no digit grouping (the columns line up by padding). */
export function formatRupees(paise: bigint): string {
  return paise < 0n ? `-₹${rupeesText(-paise)}` : `₹${rupeesText(paise)}`;
}

export function formatVerifyReport(report: VerifyReport): string {
  const lines = ['Trial balance (from postings):'];
  for (const line of report.trialBalance) {
    lines.push(
      `  ${line.kind.padEnd(8)} ${String(line.accounts).padStart(7)} accounts  ${formatRupees(line.balancePaise).padStart(20)}  (${line.balancePaise} paise)`,
    );
  }
  lines.push(
    `  ${'total'.padEnd(8)} ${''.padStart(16)}  ${formatRupees(report.totalPaise).padStart(20)}  (${report.totalPaise} paise)`,
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
