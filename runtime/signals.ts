/**
 * How a long-running process ends: SIGINT (Ctrl-C) or SIGTERM (docker stop, the tests) runs
 * its graceful stop once, then exits 0. A second signal while stopping changes nothing, so
 * an impatient Ctrl-C cannot cut the drain short.
 *
 * The stop is bounded: a drain that waits on a database that went away (pg-boss and the pool
 * retry their connections) would otherwise keep a dead process holding its port for a minute
 * or more. Past the deadline, or when the stop fails, the process says so and exits 1, so a
 * supervisor restarts it and an operator can tell a clean stop from a cut one.
 */
import { createLogger } from '../platform/logger.ts';

/** Below docker's default 10 s stop timeout, so the process ends by itself and says why. */
export const STOP_DEADLINE_MS = 8_000;

export interface StopOptions {
  /** Names the process on the log line of a cut stop. */
  service: string;
  deadlineMs?: number;
}

export function stopOnSignals(stop: (signal: NodeJS.Signals) => Promise<void>, options: StopOptions): void {
  const deadlineMs = options.deadlineMs ?? STOP_DEADLINE_MS;
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    const deadline = setTimeout(
      () => exitCut(options.service, signal, `stop took longer than ${deadlineMs} ms`),
      deadlineMs,
    );
    deadline.unref();
    stop(signal).then(
      () => process.exit(0),
      (error: unknown) => exitCut(options.service, signal, error instanceof Error ? error.message : String(error)),
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

function exitCut(service: string, signal: NodeJS.Signals, reason: string): never {
  // A fresh logger writing synchronously: the process's own may be mid-flush or closed by the stop.
  createLogger(service).error({ signal, reason }, 'stop cut short; exiting 1');
  process.exit(1);
}
