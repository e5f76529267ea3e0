/**
 * How fast a replay run goes and how long it has left, from what its live updates carry
 * (processed, total, when it started): what an operator needs to trust a progress bar.
 */
import type { ReplayRun } from '../api/types.ts';

export type ReplayPace =
  | { kind: 'loading'; eventsPerSecond: number; secondsLeft: number }
  /** Every event applied: the indexes are being built and the tables swapped in. */
  | { kind: 'finishing' }
  | { kind: 'none' };

export function replayPace(run: ReplayRun | undefined, now: number): ReplayPace {
  if (!run || run.state !== 'running' || !run.startedAt) return { kind: 'none' };
  if (run.total > 0 && run.processed >= run.total) return { kind: 'finishing' };
  const seconds = (now - Date.parse(run.startedAt)) / 1000;
  if (run.processed <= 0 || seconds <= 0) return { kind: 'none' };
  const eventsPerSecond = run.processed / seconds;
  return { kind: 'loading', eventsPerSecond, secondsLeft: Math.ceil((run.total - run.processed) / eventsPerSecond) };
}
