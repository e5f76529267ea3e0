/**
 * The projection worker loop: drain every projection, in rounds of all four, when woken (a
 * NOTIFY after each append, see wake-up.ts), on an in-process interval, and on a pg-boss
 * catch-up job scheduled every minute; and take operator-requested replays. Any number of
 * processes may run it (the composition root starts it in the API process or the worker
 * process): the projector's checkpoint lock keeps exactly one active per projection.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { JobBoss } from '../../platform/jobs.ts';
import { fallbackLogger, type Logger } from '../../platform/logger.ts';
import { formatCheckpoint } from './checkpoint.ts';
import { drainRounds, runAfterRounds, type DrainReport, type ProjectorOptions } from './projector.ts';
import { PROJECTION_NAMES } from './definition.ts';
import { PROJECTION_CATCH_UP_QUEUE } from './queues.ts';
import { startReplayWorker } from './replay-jobs.ts';
import { listenForWakeUps } from './wake-up.ts';

/**
 * A drain finding events held back (an older transaction still open) or a busy peer retries
 * this often. Short, because under load this loop is what keeps the lag down.
 */
const WAKE_RETRY_LIMIT = 50;
const WAKE_RETRY_DELAY_MS = 10;
const CATCH_UP_CRON = '* * * * *';
/**
 * Round spacing of a busy projector while replies wait for it (see drainUntilCaughtUp). 10 ms:
 * about 1 ms of a round is fixed whatever it carries, and at half of B2's peak rounds 5 ms apart
 * carried ~3 payments; 10 ms apart, ~6. Full B2, two interleaved pairs: the worker's Postgres
 * 0.459/0.408 -> 0.400/0.373 ms a payment, the open-loop p99 238.8/193.7 -> 143.1/105.1 ms and
 * its p50 lower too, the warm peak 5-8% higher; one connection's p50 the same (bench/RESULTS.md,
 * issue 40). At 20 ms (and a retry delay after every round) the median reply waited ~20 ms.
 */
const DEFAULT_BUSY_SPACING_MS = 10;
/**
 * Round spacing of a busy projector while no reply waits for it (no REPLY_WAITS wake-up since
 * its last round started): rounds carry five times the events, for a lag still well inside the
 * 100 ms target. Quick B1, interleaved, the live run against the ledger alone right after it:
 * 0.56-0.59x at 10 ms, 0.68-0.69x at 50 ms (bench/RESULTS.md, issue 40).
 */
const DEFAULT_UNHURRIED_SPACING_MS = 50;
/** How long a hurry keeps a busy projector on the short spacing: ten of a waiter's hurries apart. */
const HURRY_HOLD_MS = 100;

export interface ProjectionWorkerOptions {
  db: Kysely<unknown>;
  /** For the LISTEN connection that receives wake-ups. */
  connectionString: string;
  boss: JobBoss;
  /** The in-process safety net's period; 0 turns it off. */
  intervalMs?: number;
  /** Schedule the catch-up job (idempotent; every process may do it). */
  schedule?: boolean;
  projector?: ProjectorOptions;
  /** Least time between the starts of a busy projector's rounds while replies wait (default 10 ms). */
  busySpacingMs?: number;
  /** The same while no reply waits: no REPLY_WAITS wake-up within the last 100 ms (default 50 ms). */
  unhurriedSpacingMs?: number;
  /** The process's logger (a `projections` child is made of it). */
  log?: Logger;
}

export type StopWorkers = () => Promise<void>;

/**
 * Every scheduling process calls this with the same name and no key: pg-boss keeps one
 * schedule row per (queue, key), and its cron pass files each occurrence under that pair in a
 * one-minute slot, so however many workers schedule it the job is sent once a minute
 * (runtime/periodic-jobs.test.ts). A per-process key would send it once per process.
 */
export async function scheduleCatchUp(boss: JobBoss): Promise<void> {
  await boss.schedule(PROJECTION_CATCH_UP_QUEUE, CATCH_UP_CRON);
}

/**
 * At most one run in flight and at most one waiting behind it: calls arriving meanwhile
 * (wake-ups, catch-ups, the interval) join the waiting one instead of piling up. `work` is
 * told whether it was asked for while a run was in flight (work arrives faster than it is done).
 */
/**
 * The work after the rounds (history's earlier rows keyed as an account passes the bound: ~1 s
 * for 2,000 rows), beside them, one run at a time: done in the drain, every reply waiting for
 * the next round waited it out (quick B2's open-loop p99 of ~2 s, bench/RESULTS.md).
 */
function besideTheRounds(db: Kysely<unknown>, log: Logger): { start(): void; idle(): Promise<void> } {
  const flight = singleFlight(() => runAfterRounds(db, PROJECTION_NAMES));
  return {
    start: () => void flight.run().catch((error: unknown) => log.error({ err: error }, 'work after the rounds failed')),
    idle: flight.idle,
  };
}

function singleFlight(work: (behind: boolean) => Promise<void>): {
  run: () => Promise<void>;
  idle: () => Promise<void>;
} {
  let current: Promise<void> = Promise.resolve();
  let queued: Promise<void> | undefined;
  let running = false;
  const run = (): Promise<void> => {
    if (queued) return queued;
    const behind = running;
    const next: Promise<void> = current
      .catch(() => undefined)
      .then(async () => {
        queued = undefined;
        current = next;
        running = true;
        try {
          await work(behind);
        } finally {
          running = false;
        }
      });
    queued = next;
    return next;
  };
  const idle = async (): Promise<void> => {
    await Promise.allSettled([current, queued]);
  };
  return { run, idle };
}

export async function startProjectionWorkers(options: ProjectionWorkerOptions): Promise<StopWorkers> {
  const log = (options.log ?? fallbackLogger).child({ component: 'projections' });
  let stopped = false;

  // Drains the projections in rounds (projector.ts, drainRounds: every projection's batch over
  // one range, in one transaction) until nothing committed is left after their checkpoints, or
  // the retry limit: a wake-up can arrive while an older transaction still holds the xmin back,
  // or while a peer is mid-round.
  // Under load - the drain was asked for while the last one ran, or it goes round again for
  // events waiting behind the round it just applied - its rounds are spaced (createRoundSpacing:
  // `busySpacingMs` apart while replies wait, `unhurriedSpacingMs` otherwise), so that each
  // carries more events: a round's fixed cost (the round
  // trip, the range lookup, the rules' statements, a commit and the NOTIFYs) is paid per round,
  // and back-to-back rounds of one or two events made the projector a large share of the
  // machine's CPU under B2 and cut the payments it served. An idle projector starts at once.
  // One round for all four rather than a drain each: a batch's fixed cost was most of the read
  // side's CPU under payments (run-batch.sql), and every payment's reply waits for both of the
  // two costliest projections (accounts, history) anyway. A projection whose rule fails does not
  // hold the others: drainRounds then drains each on its own.
  // The spacing is the long one unless a reply waits (a REPLY_WAITS wake-up from an API's
  // checkpoint waiter within the last HURRY_HOLD_MS): when nobody reads right after, rounds
  // carry more events each and the read side costs the ledger less of the machine.
  const spacing = createRoundSpacing(
    options.busySpacingMs ?? DEFAULT_BUSY_SPACING_MS,
    options.unhurriedSpacingMs ?? DEFAULT_UNHURRIED_SPACING_MS,
    HURRY_HOLD_MS,
  );
  const afterRounds = besideTheRounds(options.db, log);
  const drainUntilCaughtUp = async (behind: boolean): Promise<void> => {
    let busy = behind;
    for (let attempt = 1; attempt <= WAKE_RETRY_LIMIT && !stopped; attempt++) {
      if (busy) await spacing.wait((waitMs) => log.debug({ waitMs }, 'projection round spaced'));
      spacing.roundStarted();
      const reports = await drainRounds(options.db, PROJECTION_NAMES, { ...options.projector, afterRounds: 'caller' });
      if (reports.some((report) => report.applied > 0)) afterRounds.start();
      for (const report of reports) logDrain(log, report);
      const step = stepAfterDrain(reports);
      if (step === 'caught-up') {
        log.debug('projections caught up');
        return;
      }
      busy ||= step === 'round-again';
      if (step === 'retry-later') await sleep(WAKE_RETRY_DELAY_MS);
    }
  };
  const drainer = singleFlight(drainUntilCaughtUp);
  const drain = (): Promise<void> => drainer.run();

  const wakeUp = (): void => void drain().catch((error: unknown) => log.error({ err: error }, 'drain failed'));
  const stopListening = await listenForWakeUps(
    options.connectionString,
    // A reply waiting is not news of the log (its command's own wake-up is): it only hurries.
    (replyWaits) => (replyWaits ? spacing.hurry() : wakeUp()),
    log,
  );
  await options.boss.work(PROJECTION_CATCH_UP_QUEUE, async () => {
    await drain();
  });
  if (options.schedule ?? true) await scheduleCatchUp(options.boss);
  // Operator-requested replays (POST /api/admin/projections/:name/replay).
  const stopReplays = await startReplayWorker(options.db, options.boss);

  const intervalMs = options.intervalMs ?? 1_000;
  const timer = intervalMs > 0 ? setInterval(wakeUp, intervalMs) : undefined;
  timer?.unref();
  wakeUp();

  return async () => {
    stopped = true;
    if (timer) clearInterval(timer);
    await stopListening();
    await options.boss.offWork(PROJECTION_CATCH_UP_QUEUE);
    await stopReplays();
    await drainer.idle();
    await afterRounds.idle();
  };
}

/**
 * When a busy projector's next round may start: `busyMs` after the last one started while
 * replies wait (a hurry heard within the last `holdMs`), `unhurriedMs` otherwise. A hurry during
 * the long wait cuts it short (to the short spacing from the same start), so a reply never
 * waits out the long one. The hold keeps a stream of waiting replies hurried between two of
 * their (coalesced) hurries; forgetting each at the next round left some rounds of a warm
 * payment load on the long spacing.
 */
export function createRoundSpacing(
  busyMs: number,
  unhurriedMs: number,
  holdMs: number,
): { wait(spaced: (waitMs: number) => void): Promise<void>; roundStarted(): void; hurry(): void } {
  let lastStarted = -Infinity;
  let lastHurry = -Infinity;
  let cut: (() => void) | undefined;
  const remaining = (): number => {
    const now = performance.now();
    return lastStarted + (now - lastHurry <= holdMs ? busyMs : unhurriedMs) - now;
  };
  return {
    async wait(spaced) {
      let wait = remaining();
      if (wait <= 0) return;
      spaced(Math.round(wait));
      while (wait > 0) {
        await new Promise<void>((resolve) => {
          const done = (): void => {
            clearTimeout(timer);
            cut = undefined;
            resolve();
          };
          const timer = setTimeout(done, wait);
          cut = done;
        });
        wait = remaining();
      }
    },
    roundStarted() {
      lastStarted = performance.now();
    },
    hurry() {
      lastHurry = performance.now();
      cut?.();
    },
  };
}

/**
 * What the drain loop does after a drain: stop when nothing committed is left after any
 * checkpoint; round again when it applied events (those behind them are committed and waiting,
 * and only the busy spacing paces the next round: a retry delay on top of it made every round of
 * a busy projector wait 10 ms more, and the median payment's reply with it); retry after the
 * delay when it applied nothing - the events are held back by an open transaction, or a peer
 * holds the checkpoint rows.
 */
export function stepAfterDrain(reports: readonly DrainReport[]): 'caught-up' | 'round-again' | 'retry-later' {
  if (reports.every((report) => !report.busy && !report.more)) return 'caught-up';
  return reports.some((report) => report.applied > 0) ? 'round-again' : 'retry-later';
}

/**
 * One debug line per drain that applied events, naming the last event position it reached: an
 * event found by a request id in its metadata can then be followed into the projections
 * (`LOG_LEVEL=debug`; at info a busy ledger would log hundreds of drains a second).
 */
function logDrain(log: Logger, report: DrainReport): void {
  if (report.applied === 0 || !report.checkpoint) return;
  log.debug(
    {
      projection: report.projection,
      events: report.applied,
      batches: report.batches,
      checkpoint: formatCheckpoint(report.checkpoint),
      position: report.checkpoint.position.toString(),
    },
    'projection drained',
  );
}
