/**
 * The printouts of `ledger balance ACCOUNT` and `ledger events`: what the log says, for an
 * operator (the reads are audit/account-balance.ts and audit/explorer.ts). Amounts in en-IN
 * grouping; times as stored, in UTC (ISO 8601 ending in Z).
 */
import type { BalanceReport, PostingLine, RawEvent } from '../audit/index.ts';
import { formatPaise } from '../contracts/money.ts';

export function formatBalance(report: BalanceReport): string {
  if (!report.kind) return `No account ${report.accountId}.`;
  return [
    `${report.accountId} (${report.kind})`,
    `  from postings:     ${formatPaise(report.postingsPaise)} (${report.postingsPaise} paise, ${report.postings} postings)`,
    `  account head:      ${report.headPaise === null ? '- (funding accounts have no head)' : `${formatPaise(report.headPaise)} (${report.headPaise} paise)`}`,
    `  balance projection: ${report.projectedPaise === null ? '- (not projected yet)' : `${formatPaise(report.projectedPaise)} (${report.projectedPaise} paise)`}`,
  ].join('\n');
}

/** One line per event; its postings (account and paise, in account order) at the end. */
export function formatEvents(
  events: readonly RawEvent[],
  postings: ReadonlyMap<string, readonly PostingLine[]>,
): string {
  if (events.length === 0) return 'No events match.';
  return events
    .map((event) => {
      const lines = (postings.get(event.position) ?? [])
        .map((line) => `${line.accountId} ${formatPaise(line.amountPaise)}`)
        .join(', ');
      return `${event.position.padStart(8)}  tx ${event.txId.padEnd(10)} ${event.recordedAt}  ${event.streamId}  ${event.type}  ${JSON.stringify(event.data)}${lines ? `  [${lines}]` : ''}`;
    })
    .join('\n');
}
