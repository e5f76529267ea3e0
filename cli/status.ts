/**
 * `ledger status`'s printout: a line per projection (checkpoint, applied, lag, last error)
 * and, when committed events wait behind an open transaction, that transaction (the status
 * itself is operations/projection-status.ts).
 */
import { HELD_BACK_WARNING_SECONDS, type StatusReport, type XminHolder } from '../operations/index.ts';

function describeHolder(holder: XminHolder): string {
  const who = `pid ${holder.pid} (${holder.applicationName || 'no application name'}, role ${holder.role || 'unknown'}`;
  if (!holder.visible) {
    return `  Oldest transaction: ${who}): another role's session - its age and query are shown only to that role, a superuser or a member of pg_read_all_stats.`;
  }
  return `  Oldest transaction: ${who}, ${holder.state}), open for ${(holder.transactionSeconds ?? 0).toFixed(1)} s: ${holder.query}`;
}

export function formatStatus(report: StatusReport): string {
  const lines = ['projection       checkpoint            applied     behind  seconds behind  last error'];
  for (const p of report.projections) {
    lines.push(
      `${p.projection.padEnd(16)} ${p.checkpoint.padEnd(20)} ${String(p.eventsApplied).padStart(8)} ${String(p.eventsBehind).padStart(10)} ${p.secondsBehind.toFixed(1).padStart(15)}  ${p.lastError ?? '-'}`,
    );
  }
  if (report.heldBackEvents > 0n && report.heldBackSeconds >= HELD_BACK_WARNING_SECONDS) {
    const holder = report.holder;
    lines.push(
      `${report.heldBackEvents} committed event(s), the oldest ${report.heldBackSeconds.toFixed(1)} s old, are held back by an open transaction ` +
        '(projectors read only below the snapshot xmin, which any open transaction on the server holds back; nothing is lost).',
      holder ? describeHolder(holder) : '  The holder has just finished.',
    );
  }
  return lines.join('\n');
}
