/**
 * `ledger replay [--projection NAME]`: rebuilds projections into fresh tables and swaps
 * them in (projections/replay.ts) while the app keeps serving, with a progress bar and the
 * rate at the end.
 */
import cliProgress from 'cli-progress';
import type { Kysely } from 'kysely';
import { PROJECTION_NAMES, replayProjection, type ProjectionName, type ReplayReport } from '../projections/index.ts';
import type { CliIo } from './io.ts';

export async function replayCommand(db: Kysely<unknown>, io: CliIo, projection: ProjectionName | undefined): Promise<ReplayReport[]> {
  const names = projection ? [projection] : [...PROJECTION_NAMES];
  const reports: ReplayReport[] = [];
  for (const name of names) {
    const bar = io.progress
      ? new cliProgress.SingleBar({ format: `${name.padEnd(15)} [{bar}] {percentage}% | {value}/{total} events | {eta_formatted} left`, stream: process.stderr }, cliProgress.Presets.shades_classic)
      : undefined;
    let started = false;
    const report = await replayProjection(db, name, {
      onProgress: ({ applied, total }) => {
        if (!bar) return;
        if (!started) bar.start(total, 0);
        started = true;
        bar.setTotal(total);
        bar.update(applied);
      },
    });
    bar?.stop();
    const rate = report.seconds > 0 ? Math.round(report.events / report.seconds) : report.events;
    io.out(`Replayed ${name}: ${report.events} events in ${report.seconds.toFixed(2)} s (${rate} events/s); swapped in at checkpoint ${report.checkpoint.txId}.${report.checkpoint.position}.`);
    reports.push(report);
  }
  return reports;
}
