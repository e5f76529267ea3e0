/**
 * B2 HTTP, B3 projection lag and peak RSS, against the real processes: `bin/server.ts`
 * (RUN_WORKERS=false) and `bin/worker.ts` on the bench database, users created and funded
 * over HTTP as a client would (reliability/ has the process and client plumbing; rate limits
 * are off for these processes through RATE_LIMIT_* in reliability/processes.ts).
 *   B2 - `transfer-funds` 2xx replies/s and p50/p99 with autocannon at 64 connections, each
 *        request a new transfer (random sender and receiver, a fresh Idempotency-Key, the PIN
 *        in the body, as the web app sends them) by users whose PIN verifier exists (warm:
 *        registered with the plain PIN, as our web app does), next to the same-run baseline: an
 *        authenticated request running trivial indexed reads (`get-user-info`, the session
 *        check every page makes: the user row and its balance; the API has no authenticated
 *        GET as trivial - its GETs list requests, list all users (admin) or draw a QR code).
 *        Also measured in the same run: the PIN check's bcrypt ceiling, cost-12 compares/s
 *        through the API's code (`identity/secrets.ts` and its worker-thread pool), which a
 *        cold check pays; transfer-funds at one connection (its latency with nothing
 *        queued); cold transfers - each the first PIN check of a user registered with a
 *        browser-made bcrypt hash (the spec's client), so it pays one bcrypt compare and
 *        writes the verifier - a few at a time, since the PIN pool's queue is bounded (a
 *        burst past it is answered 503 PIN_CHECK_BUSY by design); and where the API's CPU
 *        went during the warm run, per thread from /proc (event loop, PIN pool, V8 helpers).
 *        Only 2xx replies count as done; non-2xx replies and errors are printed.
 *        The machine's CPU by process group is read during the warm run and during the
 *        baseline, and printed per request side by side: what a payment costs beyond the read.
 *        Then, open loop (bench/open-loop.ts): payments built as in the warm run arriving at
 *        a fixed rate, half the warm run's 2xx/s (its peak), for `openLoopSeconds`, then the
 *        baseline's read at the same rate; each request timed from its scheduled send time,
 *        so queueing the closed loop hides (a connection waits for its answer before sending
 *        again) is charged. Right after the warm run, on the same API with the same users'
 *        PIN verifiers warm, and before the B3 probe run.
 *   B3 - during a second warm run of the same load (after the measured one: the probe costs
 *        ~5% of the machine, which the B2 figure should not pay while its baseline does not),
 *        a probe appends a transfer through the ledger every 50 ms (directly: over HTTP it
 *        would queue behind the PIN checks) and polls the payer's read.history row (by its
 *        key) every millisecond: lag = visible - commit acknowledged.
 *   RSS - VmHWM of the API and worker processes after the runs (the node processes
 *        themselves: they are spawned without a shell). The API's includes its start-up
 *        (the admin's argon2id hash, 64 MiB) and the users' sign-ins.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { randomInt, randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { createDatabase, tablesView } from '../platform/database.ts';
import { createWiredLedger } from '../runtime/ledger.ts';
import { hashPin, pinMatches, PIN_POOL_THREADS } from '../identity/secrets.ts';
import { transferStream, type LedgerTables } from '../ledger/index.ts';
import { call, callUntilDefinite, createCluster, sleep } from '../reliability/processes.ts';
import { createFundedWallets, waitForProjections, type Wallet } from '../reliability/money-load.ts';
import { BENCH_PROCESS_GROUP, cpuBreakdown, describeBreakdown, snapshotCpu, type CpuBreakdown } from './cpu-profile.ts';
import { measureThroughput, median, percentile, type BenchDatabase } from './harness.ts';
import { openLoop, type OpenLoopFigures, type OpenLoopRequest } from './open-loop.ts';

export interface CannonFigures {
  /** 2xx replies per second: a refused or failed request is not a payment. */
  requestsPerSecond: number;
  /** Answers received in the run (2xx or not). */
  requests: number;
  ok: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export interface ApiCpuFigures {
  wallSeconds: number;
  /** The event loop: Fastify, pg, JSON, zod. */
  mainThreadSeconds: number;
  /** worker_threads: the PIN bcrypt pool (the API runs no other). */
  workerThreadsSeconds: number;
  /** V8's helper threads (GC, compiler) and libuv's. */
  otherSeconds: number;
  /** workerThreads / all: the share of the API's CPU that was bcrypt. */
  pinShare: number;
}

export interface HttpFigures {
  connections: number;
  seconds: number;
  transfer: CannonFigures;
  baseline: CannonFigures;
  /** transfer-funds at one connection: a request's latency with nothing queued before it. */
  transferAlone: CannonFigures;
  /** The warm run against an API that replies at commit, without waiting for the projections (what that wait costs). */
  transferAtCommit: CannonFigures;
  /** Each request the first PIN check of its user (a bcrypt compare), `coldConcurrency` at a time. */
  cold: CannonFigures;
  coldConcurrency: number;
  ratioToBaseline: number;
  /** bcrypt cost-12 compares/s through the API's PIN pool (`pinThreads` threads), kept busy. */
  pinChecksPerSecond: number;
  pinThreads: number;
  ratioToPinCeiling: number;
  /** CPU of the API process during the transfer-funds run, by thread. */
  apiCpu: ApiCpuFigures;
  /** The whole machine's CPU during the warm transfer-funds run, by process group. */
  machineCpu: CpuBreakdown;
  /** The same during the baseline run: with `machineCpu`, what a payment costs beyond a trivial authenticated read. */
  baselineMachineCpu: CpuBreakdown;
  /** The warm load again, with the B3 lag probe running (the lag's run; reported, not the B2 figure). */
  transferWithProbe: CannonFigures;
  /** Payments, then the baseline's read, arriving at a fixed rate: half the warm run's 2xx/s. */
  openLoop: OpenLoopRunFigures;
}

/** An open-loop run and how busy the API it ran against was meanwhile. */
export type ServedOpenLoopFigures = OpenLoopFigures & {
  /**
   * The share of the run's wall time the API's event loop was running callbacks (from its
   * wallet_event_loop_active_seconds_total, platform/metrics.ts), 0 to 1; undefined when the
   * API could not be scraped.
   */
  apiEventLoopBusy: number | undefined;
  /**
   * The machine's CPU during the run, by process group. The bench process is the open loop's
   * client, on the machine it measures: what it takes is not the server's.
   */
  machineCpu: CpuBreakdown;
};

/** What an open-loop run reads the machine's CPU by: the database's URL and the processes to name. */
interface CpuWatch {
  databaseUrl: string;
  processes: Record<string, number | undefined>;
}

export interface OpenLoopRunFigures {
  ratePerSecond: number;
  seconds: number;
  /** Requests in flight beyond this were counted as errors, not sent. */
  maxInFlight: number;
  transfer: ServedOpenLoopFigures;
  read: ServedOpenLoopFigures;
  /**
   * The same payments at the same rate on an API that replies at commit
   * (READ_AFTER_REPLY_TIMEOUT_MS=0): what of the payment's latency is the write path and what
   * the wait for the projections (decision 0004).
   */
  transferAtCommit: ServedOpenLoopFigures;
}

export interface LagFigures {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface RssFigures {
  apiPeakMiB: number;
  workerPeakMiB: number;
  /** The API's memory right after the warm run, from its own /metrics (MiB by part). */
  apiAfterLoad: Record<string, number>;
}

export interface HttpLoadOptions {
  users: number;
  /** Users whose first transfer is measured cold, and how many of them pay at once. */
  coldUsers: number;
  coldConcurrency: number;
  connections: number;
  durationSeconds: number;
  /** Each open-loop run's length (payments, then reads). */
  openLoopSeconds: number;
  log: (line: string) => void;
}

const PIN = '1234';
const PROBE_INTERVAL_MS = 50;
const PROBE_TIMEOUT_MS = 5_000;
/** Far above what half the warm peak keeps in flight (rate x latency); past it the API is not keeping up. */
const OPEN_LOOP_MAX_IN_FLIGHT = 2_000;
const OPEN_LOOP_TIMEOUT_MS = 30_000;

export async function benchHttp(
  database: BenchDatabase,
  options: HttpLoadOptions,
): Promise<{ http: HttpFigures; lag: LagFigures; rss: RssFigures }> {
  // The API and the worker connect as the runtime role, as in production.
  const cluster = createCluster(database.runtimeUrl);
  try {
    const api = await cluster.spawn('api', 'bench-api');
    const worker = await cluster.spawn('worker', 'bench-worker');
    const apiPid = api.child?.pid;
    if (!apiPid) throw new Error('the API process has no pid');
    const baseUrl = (): string => api.url;
    // The PIN check's ceiling first, on a quiet machine: the API's pool may still be
    // working through queued checks after a run.
    const pin = await pinCeiling(options.durationSeconds);
    options.log(`B2 creating and funding ${options.users} users over HTTP...`);
    const deadline = Date.now() + 10 * 60_000;
    const { wallets } = await createFundedWallets(baseUrl, options.users, deadline);
    options.log(`B2 creating ${options.coldUsers} cold users (browser-hashed PIN) funded by transfers...`);
    const cold = await createColdWallets(baseUrl, options.coldUsers, deadline, wallets);
    const transferRequest = transferRequests(wallets);
    const readRequest = readRequests(wallets);

    options.log(
      `B2 baseline: authenticated get-user-info, ${options.connections} connections, ${options.durationSeconds} s...`,
    );
    const processes = { 'API process': apiPid, 'worker process': worker.child?.pid };
    const cpuWatch: CpuWatch = { databaseUrl: database.url, processes };
    const baselineBefore = await snapshotCpu(database.url, processes);
    const baseline = await cannon(
      api.url,
      options.connections,
      options.durationSeconds,
      '/api/users/get-user-info',
      readRequest,
    );
    const baselineMachineCpu = cpuBreakdown(baselineBefore, await snapshotCpu(database.url, processes), processes);

    const aloneSeconds = Math.max(3, Math.round(options.durationSeconds / 3));
    options.log(`B2 transfer-funds alone: 1 connection, ${aloneSeconds} s...`);
    const transferAlone = await cannon(api.url, 1, aloneSeconds, '/api/transactions/transfer-funds', transferRequest);

    options.log(`B2 cold: ${cold.length} first transfers, ${options.coldConcurrency} at a time...`);
    const coldFigures = await coldTransfers(api.url, cold, wallets, options.coldConcurrency);

    options.log(`B2 transfer-funds, ${options.connections} connections, ${options.durationSeconds} s...`);
    const machineBefore = await snapshotCpu(database.url, processes);
    const cpuBefore = threadTicks(apiPid);
    const cpuStarted = performance.now();
    const transfer = await cannon(
      api.url,
      options.connections,
      options.durationSeconds,
      '/api/transactions/transfer-funds',
      transferRequest,
    );
    const apiCpu = cpuShares(cpuBefore, threadTicks(apiPid), (performance.now() - cpuStarted) / 1000);
    const machineCpu = cpuBreakdown(machineBefore, await snapshotCpu(database.url, processes), processes);
    const rss = {
      apiPeakMiB: peakRssMiB(apiPid),
      workerPeakMiB: peakRssMiB(worker.child?.pid),
      apiAfterLoad: await memoryParts(api.url),
    };

    // Open loop before the B3 run (same API, verifiers warm) but after the RSS reading: the
    // peak stays the warm run's, as before.
    const openLoopFigures = await openLoopRuns(api.url, transfer.requestsPerSecond / 2, options, cpuWatch, {
      transfer: () => transferRequest(postRequest('/api/transactions/transfer-funds')),
      read: () => readRequest(postRequest('/api/users/get-user-info')),
    });

    // B3 on a run of its own under the same load: the probe's appends and its 1 ms polls took
    // ~5% of the machine, which the measured B2 run would have paid and the baseline not.
    options.log(`B3 lag probe under the same load (transfer-funds, ${options.connections} connections)...`);
    const probe = startLagProbe(database.runtimeUrl, wallets);
    const transferWithProbe = await cannon(
      api.url,
      options.connections,
      options.durationSeconds,
      '/api/transactions/transfer-funds',
      transferRequest,
    );
    const lags = await probe.stop();

    // What the read-after-reply wait costs: the same warm load on an API that replies at commit.
    options.log(`B2 transfer-funds warm, replies at commit (READ_AFTER_REPLY_TIMEOUT_MS=0)...`);
    const atCommitApi = await cluster.spawn('api', 'bench-api-at-commit', { READ_AFTER_REPLY_TIMEOUT_MS: '0' });
    const transferAtCommit = await cannon(
      atCommitApi.url,
      options.connections,
      options.durationSeconds,
      '/api/transactions/transfer-funds',
      transferRequest,
    );
    // The warm run at commit left the projections behind (its replies did not wait for them):
    // the open loop starts once they have caught up, as the one with the wait does. Started at
    // once, it shared the machine with the worker draining that backlog (265.6 ms p99 in one
    // such run: bench/RESULTS.md, 09:26 entry).
    await projectionsCaughtUp(database.runtimeUrl);
    options.log(
      `B2 open loop: transfer-funds replying at commit, arriving at ${openLoopFigures.ratePerSecond.toFixed(1)}/s, ${options.openLoopSeconds} s...`,
    );
    const atCommitWatch: CpuWatch = {
      databaseUrl: database.url,
      processes: { 'API process': atCommitApi.child?.pid, 'worker process': worker.child?.pid },
    };
    const transferAtCommitOpenLoop = await openLoopRun(
      atCommitApi.url,
      openLoopFigures.ratePerSecond,
      options,
      atCommitWatch,
      () => transferRequest(postRequest('/api/transactions/transfer-funds')),
    );
    const http: HttpFigures = {
      connections: options.connections,
      seconds: options.durationSeconds,
      transfer,
      baseline,
      transferAlone,
      cold: coldFigures,
      transferAtCommit,
      transferWithProbe,
      coldConcurrency: options.coldConcurrency,
      ratioToBaseline: transfer.requestsPerSecond / baseline.requestsPerSecond,
      pinChecksPerSecond: pin.perSecond,
      pinThreads: pin.threads,
      ratioToPinCeiling: transfer.requestsPerSecond / pin.perSecond,
      apiCpu,
      machineCpu,
      baselineMachineCpu,
      openLoop: { ...openLoopFigures, transferAtCommit: transferAtCommitOpenLoop },
    };
    const lag: LagFigures = {
      samples: lags.length,
      p50Ms: median(lags),
      p99Ms: percentile(lags, 99),
      maxMs: Math.max(0, ...lags),
    };
    options.log(
      `B2 transfer-funds warm ${transfer.requestsPerSecond.toFixed(1)}/s (p99 ${transfer.p99Ms} ms, non-2xx ${transfer.non2xx}, errors ${transfer.errors}; ` +
        `alone p50 ${transferAlone.p50Ms} ms; cold ${coldFigures.requestsPerSecond.toFixed(1)}/s p99 ${coldFigures.p99Ms} ms), baseline ${baseline.requestsPerSecond.toFixed(0)}/s, ` +
        `PIN ceiling ${pin.perSecond.toFixed(1)}/s on ${pin.threads} thread(s), bcrypt ${(apiCpu.pinShare * 100).toFixed(0)}% of the API's CPU; ` +
        `open loop at ${openLoopFigures.ratePerSecond.toFixed(1)}/s: payment p99 ${openLoopFigures.transfer.p99Ms} ms (at commit ${transferAtCommitOpenLoop.p99Ms} ms; API loop busy ${busyShare(openLoopFigures.transfer)}, machine ${Math.round(openLoopFigures.transfer.machineCpu.machineBusyShare * 100)}%, client ${clientCpuMs(openLoopFigures.transfer)} ms CPU a request), read p99 ${openLoopFigures.read.p99Ms} ms; ` +
        `B3 lag p99 ${lag.p99Ms.toFixed(1)} ms; RSS api ${rss.apiPeakMiB} MiB, worker ${rss.workerPeakMiB} MiB`,
    );
    return { http, lag, rss };
  } finally {
    await cluster.stopAll();
  }
}

/** The B2, B3 and RSS tables. */
export function printHttp(http: HttpFigures, lag: LagFigures, rss: RssFigures): void {
  const row = (request: string, figures: CannonFigures) => ({
    request,
    'req/s': figures.requestsPerSecond.toFixed(1),
    'p50 ms': figures.p50Ms,
    'p99 ms': figures.p99Ms,
    'non-2xx': figures.non2xx,
    errors: figures.errors,
  });
  console.log(`\nB2 HTTP (autocannon, ${http.connections} connections, ${http.seconds} s each)`);
  console.table([
    row('POST transfer-funds, warm (PIN verifier + transfer)', http.transfer),
    row('transfer-funds warm, reply at commit (no read-after-reply wait)', http.transferAtCommit),
    row('transfer-funds warm, with the B3 lag probe (B3 run)', http.transferWithProbe),
    row('baseline: authenticated get-user-info', http.baseline),
    row('transfer-funds warm, 1 connection', http.transferAlone),
    row(`transfer-funds cold (first PIN check: bcrypt), ${http.coldConcurrency} at a time`, http.cold),
    {
      request: `PIN ceiling: bcrypt cost-12 compares, ${http.pinThreads} thread(s)`,
      'req/s': http.pinChecksPerSecond.toFixed(1),
      'p50 ms': '',
      'p99 ms': '',
      'non-2xx': '',
      errors: '',
    },
  ]);
  printOpenLoop(http.openLoop);
  console.log(
    `transfer-funds = ${http.ratioToBaseline.toFixed(3)}x the baseline, ${http.ratioToPinCeiling.toFixed(2)}x the PIN ceiling`,
  );
  const cpu = http.apiCpu;
  console.log(
    `API CPU during transfer-funds (${cpu.wallSeconds.toFixed(0)} s): PIN pool ${cpu.workerThreadsSeconds.toFixed(1)} s, event loop ${cpu.mainThreadSeconds.toFixed(1)} s, ` +
      `V8/libuv helpers ${cpu.otherSeconds.toFixed(1)} s: bcrypt is ${(cpu.pinShare * 100).toFixed(0)}% of the API's CPU`,
  );
  console.log("\nWhere the machine's CPU went during transfer-funds, warm:");
  for (const line of describeBreakdown(http.machineCpu, http.transfer.ok, 'transfer')) console.log(line);
  console.log("\nWhere the machine's CPU went during the baseline:");
  for (const line of describeBreakdown(http.baselineMachineCpu, http.baseline.ok, 'read')) console.log(line);
  console.log('\nCPU per request, ms: a transfer against the baseline read, by group');
  console.table(perRequestComparison(http));
  console.log('\nB3 projection lag under the B2 load (commit acknowledged -> row in read.history)');
  console.table([
    {
      samples: lag.samples,
      'p50 ms': lag.p50Ms.toFixed(1),
      'p99 ms': lag.p99Ms.toFixed(1),
      'max ms': lag.maxMs.toFixed(1),
    },
  ]);
  console.log('\nPeak RSS (VmHWM after B2)');
  console.table([
    { process: 'API', MiB: rss.apiPeakMiB },
    { process: 'worker', MiB: rss.workerPeakMiB },
  ]);
  console.log(
    `API right after the warm run (its /metrics, MiB): ${Object.entries(rss.apiAfterLoad)
      .map(([part, mib]) => `${part} ${mib}`)
      .join(', ')}`,
  );
}

function printOpenLoop(run: OpenLoopRunFigures): void {
  const row = (request: string, figures: ServedOpenLoopFigures) => ({
    request,
    'answers/s': figures.achievedPerSecond.toFixed(1),
    sent: figures.sent,
    ok: figures.ok,
    'non-2xx': figures.non2xx,
    errors: figures.errors,
    'p50 ms': figures.p50Ms,
    'p99 ms': figures.p99Ms,
    'p99.9 ms': figures.p999Ms,
    'max ms': figures.maxMs,
    'API loop busy': busyShare(figures),
    'machine busy': `${Math.round(figures.machineCpu.machineBusyShare * 100)}%`,
    'client CPU ms/req': clientCpuMs(figures),
  });
  console.log(
    `\nB2 open loop: ${run.ratePerSecond.toFixed(1)} arrivals/s (half the warm peak), ${run.seconds} s each, ` +
      `latency from each request's scheduled send time, over all answers (2xx or not)`,
  );
  console.table([
    row('POST transfer-funds, warm', run.transfer),
    row('baseline: authenticated get-user-info', run.read),
    row('transfer-funds, reply at commit (no read-after-reply wait)', run.transferAtCommit),
  ]);
  const overCap = run.transfer.overCap + run.read.overCap + run.transferAtCommit.overCap;
  if (overCap > 0) console.log(`${overCap} arrivals found ${run.maxInFlight} requests in flight: counted as errors`);
}

/**
 * One open-loop run of `request` against `url` at `ratePerSecond`, with the API's event loop
 * and the machine's CPU read before and after.
 */
async function openLoopRun(
  url: string,
  ratePerSecond: number,
  options: HttpLoadOptions,
  watch: CpuWatch,
  request: () => OpenLoopRequest,
): Promise<ServedOpenLoopFigures> {
  const before = await eventLoopActiveSeconds(url);
  const cpuBefore = await snapshotCpu(watch.databaseUrl, watch.processes);
  const started = performance.now();
  const figures = await openLoop(url, {
    ratePerSecond,
    seconds: options.openLoopSeconds,
    maxInFlight: OPEN_LOOP_MAX_IN_FLIGHT,
    timeoutMs: OPEN_LOOP_TIMEOUT_MS,
    request,
  });
  const machineCpu = cpuBreakdown(cpuBefore, await snapshotCpu(watch.databaseUrl, watch.processes), watch.processes);
  const after = await eventLoopActiveSeconds(url);
  const wallSeconds = (performance.now() - started) / 1000;
  const busy = before !== undefined && after !== undefined ? (after - before) / wallSeconds : undefined;
  return { ...figures, apiEventLoopBusy: busy, machineCpu };
}

/** The bench process's CPU per request answered: the open loop client's cost. */
function clientCpuMs(figures: ServedOpenLoopFigures): string {
  const client = figures.machineCpu.groups.find((group) => group.group === BENCH_PROCESS_GROUP);
  const answered = figures.ok + figures.non2xx;
  return client && answered > 0 ? ((client.cpuSeconds * 1000) / answered).toFixed(3) : '-';
}

function busyShare(figures: ServedOpenLoopFigures): string {
  return figures.apiEventLoopBusy === undefined ? 'unread' : `${Math.round(figures.apiEventLoopBusy * 100)}%`;
}

/** The API's wallet_event_loop_active_seconds_total; undefined if unreadable. */
async function eventLoopActiveSeconds(url: string): Promise<number | undefined> {
  try {
    const text = await metricsText(url);
    const value = /^wallet_event_loop_active_seconds_total ([\d.e+-]+)$/m.exec(text)?.[1];
    return value === undefined ? undefined : Number(value);
  } catch {
    return undefined;
  }
}

/**
 * The open-loop runs at `ratePerSecond`: payments, then reads, one after the other (the
 * payments replying at commit are run later, on their own API: `transferAtCommit`).
 */
async function openLoopRuns(
  url: string,
  ratePerSecond: number,
  options: HttpLoadOptions,
  watch: CpuWatch,
  requests: { transfer: () => OpenLoopRequest; read: () => OpenLoopRequest },
): Promise<Omit<OpenLoopRunFigures, 'transferAtCommit'>> {
  // A failed warm run leaves no peak to halve: one arrival a second still reports the latency.
  const rate = Math.max(1, ratePerSecond);
  options.log(`B2 open loop: transfer-funds arriving at ${rate.toFixed(1)}/s, ${options.openLoopSeconds} s...`);
  const transfer = await openLoopRun(url, rate, options, watch, requests.transfer);
  options.log(`B2 open loop: get-user-info arriving at ${rate.toFixed(1)}/s, ${options.openLoopSeconds} s...`);
  const read = await openLoopRun(url, rate, options, watch, requests.read);
  return {
    ratePerSecond: rate,
    seconds: options.openLoopSeconds,
    maxInFlight: OPEN_LOOP_MAX_IN_FLIGHT,
    transfer,
    read,
  };
}

/** The request autocannon hands to a setup function (`cannon`), for the open loop's. */
function postRequest(path: string): Request {
  return { method: 'POST', path, headers: { 'content-type': 'application/json' } };
}

/** ms of CPU per answered request, by process group, of the warm transfer run and of the baseline run. */
export function perRequestComparison(
  http: Pick<HttpFigures, 'machineCpu' | 'baselineMachineCpu' | 'transfer' | 'baseline'>,
): Array<{ group: string; transfer: string; baseline: string; difference: string }> {
  const perRequest = (breakdown: CpuBreakdown, answered: number): Map<string, number> =>
    new Map(breakdown.groups.map((group) => [group.group, (group.cpuSeconds * 1000) / Math.max(answered, 1)]));
  const transfer = perRequest(http.machineCpu, http.transfer.ok);
  const baseline = perRequest(http.baselineMachineCpu, http.baseline.ok);
  const groups = [...new Set([...transfer.keys(), ...baseline.keys()])];
  const rows = groups
    .map((group) => ({ group, transfer: transfer.get(group) ?? 0, baseline: baseline.get(group) ?? 0 }))
    .filter((row) => row.transfer >= 0.005 || row.baseline >= 0.005)
    .sort((a, b) => b.transfer - b.baseline - (a.transfer - a.baseline));
  const sum = (key: 'transfer' | 'baseline'): number => rows.reduce((total, row) => total + row[key], 0);
  return [...rows, { group: 'all', transfer: sum('transfer'), baseline: sum('baseline') }].map((row) => ({
    group: row.group,
    transfer: row.transfer.toFixed(3),
    baseline: row.baseline.toFixed(3),
    difference: (row.transfer - row.baseline).toFixed(3),
  }));
}

/** autocannon's request setup for transfer-funds: a random sender and receiver among `wallets`, a fresh Idempotency-Key each. */
export function transferRequests(wallets: readonly Wallet[]): (request: Request) => Request {
  return (request) => {
    const from = pick(wallets);
    let to = pick(wallets);
    while (to === from) to = pick(wallets);
    return {
      ...request,
      headers: { ...request.headers, authorization: `Bearer ${from.token}`, 'idempotency-key': randomUUID() },
      body: JSON.stringify({ receiver: to.id, amount: 1, reference: 'bench', transactionPin: PIN }),
    };
  };
}

/** The baseline's request setup: get-user-info as a random user among `wallets`. */
export function readRequests(wallets: readonly Wallet[]): (request: Request) => Request {
  return (request) => {
    const user = pick(wallets);
    return { ...request, headers: { ...request.headers, authorization: `Bearer ${user.token}` }, body: '{}' };
  };
}

export function pick<T>(list: readonly T[]): T {
  return list[randomInt(list.length)] as T;
}

export type Request = { method: string; path: string; headers: Record<string, string>; body?: string };

/** autocannon on one route; with several URLs it spreads the connections over them round-robin. */
export async function cannon(
  url: string | string[],
  connections: number,
  durationSeconds: number,
  path: string,
  setup: (request: Request) => Request,
): Promise<CannonFigures> {
  const result = await autocannon({
    // autocannon 9 takes a list of URLs (connection i goes to url i mod n: lib/run.js); its types say a string.
    url: url as string,
    connections,
    duration: durationSeconds,
    timeout: 60,
    requests: [{ method: 'POST', path, headers: { 'content-type': 'application/json' }, setupRequest: setup as never }],
  });
  return {
    requestsPerSecond: result['2xx'] / result.duration,
    requests: result.requests.total,
    ok: result['2xx'],
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/**
 * Users registered with a browser-made bcrypt hash of the PIN (the spec's client), activated,
 * signed in and funded by a transfer from a warm wallet: their PIN has never been checked, so
 * their first transfer pays one bcrypt compare. One hash serves all (the salt is the
 * client's business; the server's verifier is per user anyway).
 */
async function createColdWallets(
  baseUrl: () => string,
  count: number,
  deadline: number,
  funders: readonly Wallet[],
): Promise<Wallet[]> {
  const browserHash = await hashPin(PIN);
  const { wallets } = await createFundedWallets(baseUrl, count, deadline, {
    registrationPin: browserHash,
    fund: false,
  });
  for (const [index, wallet] of wallets.entries()) {
    const funder = funders[index % funders.length] as Wallet;
    const reply = await callUntilDefinite(
      'POST',
      '/api/transactions/transfer-funds',
      {
        token: funder.token,
        headers: { 'idempotency-key': `fund-${wallet.id}` },
        body: { receiver: wallet.id, amount: 100, reference: 'fund cold user', transactionPin: PIN },
      },
      { baseUrl, deadline },
    );
    if (reply.status !== 200) throw new Error(`funding ${wallet.id}: ${JSON.stringify(reply.body)}`);
  }
  return wallets;
}

/** One transfer per cold wallet, `concurrency` in flight; each reply timed, only 2xx counted as done. */
async function coldTransfers(
  url: string,
  cold: readonly Wallet[],
  receivers: readonly Wallet[],
  concurrency: number,
): Promise<CannonFigures> {
  const latencies: number[] = [];
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let index = next++; index < cold.length; index = next++) {
        const from = cold[index] as Wallet;
        const sent = performance.now();
        try {
          const reply = await call(url, 'POST', '/api/transactions/transfer-funds', {
            token: from.token,
            headers: { 'idempotency-key': randomUUID() },
            body: { receiver: pick(receivers).id, amount: 1, reference: 'bench cold', transactionPin: PIN },
            timeoutMs: 60_000,
          });
          latencies.push(performance.now() - sent);
          if (reply.status >= 200 && reply.status < 300) ok += 1;
          else non2xx += 1;
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    requestsPerSecond: ok / seconds,
    requests: latencies.length,
    ok,
    p50Ms: Math.round(percentile(latencies, 50)),
    p99Ms: Math.round(percentile(latencies, 99)),
    non2xx,
    errors,
  };
}

/** Resolves when every projection has reached the last event of the log (at most two minutes). */
async function projectionsCaughtUp(url: string): Promise<void> {
  const db = createDatabase<unknown>({ connectionString: url, maxConnections: 1, applicationName: 'bench-catch-up' });
  try {
    await waitForProjections(db, 120_000);
  } finally {
    await db.destroy();
  }
}

/** Transfers appended through the ledger (as the API does), each timed from its commit to its history row. */
function startLagProbe(url: string, wallets: readonly Wallet[]): { stop(): Promise<number[]> } {
  const db = createDatabase<unknown>({ connectionString: url, maxConnections: 2, applicationName: 'bench-lag-probe' });
  const ledger = createWiredLedger(tablesView<LedgerTables>(db));
  const poller = new pg.Client({ connectionString: url, application_name: 'bench-lag-poll' });
  const lags: number[] = [];
  let stopped = false;
  const [from, to] = [wallets[0] as Wallet, wallets[1] as Wallet];
  const run = (async () => {
    await poller.connect();
    for (let n = 0; !stopped; n++) {
      const started = performance.now();
      const transferId = randomUUID();
      const [payer, payee] = n % 2 === 0 ? [from, to] : [to, from];
      await ledger.transfer(
        { transferId, fromAccountId: payer.id, toAccountId: payee.id, amountPaise: 100n, reference: 'lag probe' },
        { actorId: payer.id },
      );
      const committed = performance.now();
      for (;;) {
        // By the history row's primary key (the payer's row of this transfer's stream): a
        // search by transaction_id alone has only the (account, trigram) index and scanned the
        // table - ~6% of the machine's CPU during B2, charged to the transfers.
        const { rowCount } = await poller.query(
          'select 1 from read.history where account_id = $1 and stream_id = $2 limit 1',
          [payer.id, transferStream(transferId)],
        );
        if (rowCount) break;
        if (performance.now() - committed > PROBE_TIMEOUT_MS)
          throw new Error(`transfer ${transferId} not in read.history after ${PROBE_TIMEOUT_MS} ms`);
        await sleep(1);
      }
      lags.push(performance.now() - committed);
      await sleep(Math.max(0, PROBE_INTERVAL_MS - (performance.now() - started)));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      try {
        await run;
      } finally {
        await ledger.wakeUps.flush();
        await poller.end();
        await db.destroy();
      }
      return lags;
    },
  };
}

/** bcrypt cost-12 compares/s through the API's own PIN hashing pool (identity/secrets.ts), kept busy. */
async function pinCeiling(durationSeconds: number): Promise<{ perSecond: number; threads: number }> {
  const hash = await hashPin(PIN);
  const threads = PIN_POOL_THREADS;
  const result = await measureThroughput(4 * threads, Math.min(durationSeconds, 5) * 1000, async () => {
    if (!(await pinMatches(hash, PIN))) throw new Error('PIN mismatch');
  });
  return { perSecond: result.operationsPerSecond, threads };
}

type ThreadTicks = Map<string, { name: string; ticks: number }>;

/** CPU clock ticks (user + system) of each thread of a process, by thread id. */
function threadTicks(pid: number): ThreadTicks {
  const ticks: ThreadTicks = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(tid, { name, ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return ticks;
}

/** The CPU between two readings by thread name: Node names its threads MainThread, WorkerThread (worker_threads), V8Worker, libuv-worker. */
function cpuShares(before: ThreadTicks, after: ThreadTicks, wallSeconds: number): ApiCpuFigures {
  const TICKS_PER_SECOND = 100;
  let main = 0;
  let workers = 0;
  let other = 0;
  for (const [tid, thread] of after) {
    const seconds = (thread.ticks - (before.get(tid)?.ticks ?? 0)) / TICKS_PER_SECOND;
    if (thread.name === 'MainThread') main += seconds;
    else if (thread.name === 'WorkerThread') workers += seconds;
    else other += seconds;
  }
  const total = main + workers + other;
  return {
    wallSeconds,
    mainThreadSeconds: main,
    workerThreadsSeconds: workers,
    otherSeconds: other,
    pinShare: total > 0 ? workers / total : 0,
  };
}

/**
 * Where the API's resident memory is, by its own metrics (prom-client's defaults): resident,
 * each V8 heap space's size, and memory outside the heap (buffers, native modules).
 */
async function memoryParts(url: string): Promise<Record<string, number>> {
  const text = await metricsText(url);
  const mib = (bytes: string | undefined): number => Math.round(Number(bytes ?? Number.NaN) / 2 ** 20);
  const parts: Record<string, number> = {
    resident: mib(/^process_resident_memory_bytes (\S+)$/m.exec(text)?.[1]),
    'V8 heap': mib(/^nodejs_heap_size_total_bytes (\S+)$/m.exec(text)?.[1]),
    'V8 heap used': mib(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)?.[1]),
    external: mib(/^nodejs_external_memory_bytes (\S+)$/m.exec(text)?.[1]),
  };
  for (const match of text.matchAll(/^nodejs_heap_space_size_total_bytes\{space="(\w+)"\} (\S+)$/gm))
    if (match[1] && Number(match[2]) >= 2 ** 20) parts[`heap: ${match[1]}`] = mib(match[2]);
  return parts;
}

/** The API's own /metrics exposition (open to loopback callers: platform/metrics.ts). */
async function metricsText(url: string): Promise<string> {
  return (await fetch(`${url}/metrics`)).text();
}

/** The process's peak resident set (VmHWM), in MiB. */
function peakRssMiB(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN);
  return Math.round(kib / 1024);
}
