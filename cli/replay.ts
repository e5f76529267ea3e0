/**
 * `ledger replay [--projection NAME]`: rebuilds projections into fresh tables and swaps
 * them in (projections/engine/replay.ts) while the app keeps serving - all of them at the same
 * time unless one is named - with a progress bar each on stderr in a terminal, or a JSON line
 * of progress (phase, events done, rate, time left) when stderr is not one, and the rates at
 * the end.
 */
import cliProgress from 'cli-progress';
import type { Kysely } from 'kysely';
import {
  PROJECTION_NAMES,
  replayBalances,
  replayProjections,
  type ProjectionName,
  type ReplayProgress,
  type ReplayReport,
} from '../projections/index.ts';
import type { CliIo } from './io.ts';

export interface ReplayOutcome {
  reports: ReplayReport[];
  /** Wall-clock seconds for all of them. */
  seconds: number;
}

/**
 * `projection` names one projection; 'balances' rebuilds the balances alone (each wallet's
 * running figures on its newest posting, replayBalances); undefined, every projection.
 */
export async function replayCommand(
  db: Kysely<unknown>,
  io: CliIo,
  projection: ProjectionName | 'balances' | undefined,
): Promise<ReplayOutcome> {
  const started = performance.now();
  const bars = io.progress ? progressBars() : progressLines(io);
  try {
    const reports =
      projection === 'balances'
        ? [await replayBalances(db, { onProgress: bars.update })]
        : await replayProjections(db, projection ? [projection] : [...PROJECTION_NAMES], { onProgress: bars.update });
    return { reports, seconds: (performance.now() - started) / 1000 };
  } finally {
    bars.stop();
  }
}

/** Each projection's rate with its phases, and the total when there are several. */
export function formatReplay({ reports, seconds }: ReplayOutcome): string {
  const lines = reports.map(
    (report) =>
      `Replayed ${report.projection}: ${report.events} events in ${report.seconds.toFixed(2)} s (${rate(report.events, report.seconds)} events/s; load ${report.phases.loadSeconds.toFixed(2)} s, indexes ${report.phases.indexSeconds.toFixed(2)} s, swap ${report.phases.swapSeconds.toFixed(2)} s); swapped in at checkpoint ${report.checkpoint.txId}.${report.checkpoint.position}.`,
  );
  if (reports.length > 1) {
    const events = Math.max(...reports.map((report) => report.events));
    lines.push(
      `All ${reports.length} projections: ${events} events in ${seconds.toFixed(2)} s (${rate(events, seconds)} events/s).`,
    );
  }
  return lines.join('\n');
}

function rate(events: number, seconds: number): number {
  return seconds > 0 ? Math.round(events / seconds) : events;
}

function progressBars(): { update: (progress: ReplayProgress) => void; stop: () => void } {
  const multi = new cliProgress.MultiBar(
    {
      format: '{projection} [{bar}] {percentage}% | {value}/{total} events | {phase} | {eta_formatted} left',
      stream: process.stderr,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  const bars = new Map<ProjectionName, cliProgress.SingleBar>();
  return {
    update: ({ projection, applied, total, phase }) => {
      let bar = bars.get(projection);
      if (!bar) {
        bar = multi.create(total, 0, { projection: projection.padEnd(15), phase });
        bars.set(projection, bar);
      }
      bar.setTotal(total);
      bar.update(applied, { phase });
    },
    stop: () => multi.stop(),
  };
}

/** A JSON line of progress per projection, at most once a second and at each change of phase. */
export interface ReplayProgressLine {
  projection: ProjectionName;
  phase: ReplayProgress['phase'];
  applied: number;
  total: number;
  seconds: number;
  eventsPerSecond: number;
  /** While loading, at the rate so far; null before any event is applied and after the load. */
  secondsLeft: number | null;
}

const PROGRESS_LINE_EVERY_MS = 1_000;

function progressLines(io: CliIo): { update: (progress: ReplayProgress) => void; stop: () => void } {
  const started = performance.now();
  const last = new Map<ProjectionName, { at: number; phase: string }>();
  return {
    update: ({ projection, applied, total, phase }) => {
      const now = performance.now();
      const previous = last.get(projection);
      if (previous && previous.phase === phase && now - previous.at < PROGRESS_LINE_EVERY_MS) return;
      last.set(projection, { at: now, phase });
      const seconds = (now - started) / 1000;
      const eventsPerSecond = seconds > 0 ? Math.round(applied / seconds) : 0;
      const secondsLeft =
        phase === 'load' && eventsPerSecond > 0 ? Math.round(((total - applied) / eventsPerSecond) * 10) / 10 : null;
      const line: ReplayProgressLine = {
        projection,
        phase,
        applied,
        total,
        seconds: Math.round(seconds * 100) / 100,
        eventsPerSecond,
        secondsLeft,
      };
      io.err(JSON.stringify(line));
    },
    stop: () => undefined,
  };
}
