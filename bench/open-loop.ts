/**
 * An open-loop HTTP load generator (B2's open-loop run): request i is sent at t0 + i/rate
 * whether or not earlier ones have answered, and its latency runs from that scheduled time
 * to its answer, so a stalled server is charged for every request that arrived meanwhile (no
 * coordinated omission, unlike a closed loop of connections, autocannon's `overallRate`
 * included). Node's global fetch: its dispatcher opens as many keep-alive connections as the
 * requests in flight need. In-flight requests are capped; an arrival over the cap is counted
 * as an error, not queued in memory.
 */
import { sleep } from '../reliability/processes.ts';
import { percentile } from './harness.ts';

export interface OpenLoopFigures {
  /** The target arrival rate. */
  ratePerSecond: number;
  /** Answers (2xx or not) per second, from the first scheduled send to the last answer. */
  achievedPerSecond: number;
  /** Requests sent (arrivals over the in-flight cap are not sent). */
  sent: number;
  ok: number;
  non2xx: number;
  /** Network errors, timeouts, and arrivals over the in-flight cap. */
  errors: number;
  /** Of `errors`: arrivals dropped because `maxInFlight` requests were already waiting. */
  overCap: number;
  // Latency over every answer, 2xx or not (an error has no answer), from its scheduled send time.
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
}

export interface OpenLoopRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface OpenLoopOptions {
  ratePerSecond: number;
  seconds: number;
  maxInFlight: number;
  /** A request without an answer after this is an error. */
  timeoutMs: number;
  /** Built at its send time (a fresh Idempotency-Key per request). */
  request: () => OpenLoopRequest;
}

interface Tally {
  latencies: number[];
  sent: number;
  ok: number;
  non2xx: number;
  errors: number;
  overCap: number;
  inFlight: number;
  lastAnswer: number;
}

/** Sends `ratePerSecond * seconds` requests to `url` on a fixed schedule, then waits for the ones in flight. */
export async function openLoop(url: string, options: OpenLoopOptions): Promise<OpenLoopFigures> {
  const tally: Tally = { latencies: [], sent: 0, ok: 0, non2xx: 0, errors: 0, overCap: 0, inFlight: 0, lastAnswer: 0 };
  const pending = new Set<Promise<void>>();
  const total = Math.floor(options.ratePerSecond * options.seconds);
  const intervalMs = 1000 / options.ratePerSecond;
  const started = performance.now();
  for (let next = 0; next < total;) {
    // Every request whose time has come goes now, even if the timer fired late: a late tick
    // sends a burst, as arrivals would have piled up, and each is timed from its own slot.
    const now = performance.now();
    for (; next < total && started + next * intervalMs <= now; next++) {
      const sending = send(url, options, started + next * intervalMs, tally);
      pending.add(sending);
      void sending.finally(() => pending.delete(sending));
    }
    if (next < total) await sleep(Math.max(0, started + next * intervalMs - performance.now()));
  }
  await Promise.all(pending);
  return figures(options.ratePerSecond, tally, ((tally.lastAnswer || performance.now()) - started) / 1000);
}

/** One request scheduled at `scheduledAt`, unless the cap is reached; never throws. */
async function send(url: string, options: OpenLoopOptions, scheduledAt: number, tally: Tally): Promise<void> {
  if (tally.inFlight >= options.maxInFlight) {
    tally.overCap += 1;
    tally.errors += 1;
    return;
  }
  tally.inFlight += 1;
  tally.sent += 1;
  try {
    const request = options.request();
    const response = await fetch(`${url}${request.path}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    // The answer is whole once its body is read; it also frees the connection for reuse.
    await response.arrayBuffer();
    const answeredAt = performance.now();
    tally.latencies.push(answeredAt - scheduledAt);
    tally.lastAnswer = answeredAt;
    if (response.status >= 200 && response.status < 300) tally.ok += 1;
    else tally.non2xx += 1;
  } catch {
    tally.errors += 1;
  } finally {
    tally.inFlight -= 1;
  }
}

function figures(ratePerSecond: number, tally: Tally, seconds: number): OpenLoopFigures {
  const ms = (value: number): number => Math.round(value * 10) / 10;
  return {
    ratePerSecond,
    achievedPerSecond: tally.latencies.length / seconds,
    sent: tally.sent,
    ok: tally.ok,
    non2xx: tally.non2xx,
    errors: tally.errors,
    overCap: tally.overCap,
    p50Ms: ms(percentile(tally.latencies, 50)),
    p99Ms: ms(percentile(tally.latencies, 99)),
    p999Ms: ms(percentile(tally.latencies, 99.9)),
    maxMs: ms(tally.latencies.reduce((max, value) => Math.max(max, value), 0)),
  };
}
