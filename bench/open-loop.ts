/**
 * An open-loop HTTP load generator (B2's open-loop run): request i is sent at t0 + i/rate
 * whether or not earlier ones have answered, and its latency runs from that scheduled time
 * to its answer, so a stalled server is charged for every request that arrived meanwhile (no
 * coordinated omission, unlike a closed loop of connections, autocannon's `overallRate`
 * included). In-flight requests are capped; an arrival over the cap is counted as an error,
 * not queued in memory.
 *
 * The client is undici's connection pool, which opens as many keep-alive connections as the
 * requests in flight need. It runs on the machine it measures, so what it costs is taken from
 * the server. Node's global fetch (its streams, Headers and a timer signal per request) cost
 * this process ~0.29 ms of CPU a request at ~1,000/s, 14% of a two-core machine and six times
 * autocannon's per request in the closed-loop run; the pool costs 0.13-0.16 ms
 * (bench/RESULTS.md, 2026-11-29 18:46 entry).
 */
import { Pool } from 'undici';
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
  /** An answer whose headers take longer than this (or whose body stalls this long) is an error. */
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
  const pool = new Pool(url, { connections: null, keepAliveTimeout: 30_000 });
  const started = performance.now();
  for (let next = 0; next < total;) {
    // Every request whose time has come goes now, even if the timer fired late: a late tick
    // sends a burst, as arrivals would have piled up, and each is timed from its own slot.
    const now = performance.now();
    for (; next < total && started + next * intervalMs <= now; next++) {
      const sending = send(pool, options, started + next * intervalMs, tally);
      pending.add(sending);
      void sending.finally(() => pending.delete(sending));
    }
    if (next < total) await sleep(Math.max(0, started + next * intervalMs - performance.now()));
  }
  await Promise.all(pending);
  await pool.close();
  return figures(options.ratePerSecond, tally, ((tally.lastAnswer || performance.now()) - started) / 1000);
}

/** One request scheduled at `scheduledAt`, unless the cap is reached; never throws. */
async function send(pool: Pool, options: OpenLoopOptions, scheduledAt: number, tally: Tally): Promise<void> {
  if (tally.inFlight >= options.maxInFlight) {
    tally.overCap += 1;
    tally.errors += 1;
    return;
  }
  tally.inFlight += 1;
  tally.sent += 1;
  try {
    const request = options.request();
    const response = await pool.request({
      method: request.method,
      path: request.path,
      headers: request.headers,
      body: request.body ?? null,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
    // The answer is whole once its body is read; it also frees the connection for reuse.
    await response.body.dump();
    const answeredAt = performance.now();
    tally.latencies.push(answeredAt - scheduledAt);
    tally.lastAnswer = answeredAt;
    if (response.statusCode >= 200 && response.statusCode < 300) tally.ok += 1;
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
