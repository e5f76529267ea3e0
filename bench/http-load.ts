/**
 * B2 HTTP, B3 projection lag and peak RSS, against the real processes: `bin/server.ts`
 * (RUN_WORKERS=false) and `bin/worker.ts` on the bench database, users created and funded
 * over HTTP as a client would (reliability/ has the process and client plumbing).
 *   B2 - `transfer-funds` requests/s and p50/p99 with autocannon at 64 connections, each
 *        request a new transfer (random sender and receiver, a fresh Idempotency-Key), next
 *        to the same-run baseline: an authenticated request running trivial indexed reads
 *        (`get-user-info`: the user row and its balance). Also measured in the same run: the
 *        PIN check's own ceiling, bcrypt cost-12 compares/s with the API's code
 *        (`identity/secrets.ts`), since every transfer-funds pays one.
 *   B3 - during the transfer-funds run, a probe appends a transfer through the ledger every
 *        20 ms and polls read.history every millisecond: lag = visible - commit acknowledged.
 *   RSS - VmHWM of the API and worker processes after the runs.
 */
import { readFileSync } from 'node:fs';
import { randomInt, randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { createDatabase, tablesView } from '../platform/database.ts';
import { createWiredLedger } from '../runtime/ledger.ts';
import { hashPin, pinMatches } from '../identity/secrets.ts';
import type { LedgerTables } from '../ledger/index.ts';
import { createCluster, sleep } from '../reliability/processes.ts';
import { createFundedWallets, type Wallet } from '../reliability/money-load.ts';
import { measureThroughput, median, percentile, type BenchDatabase } from './harness.ts';

export interface HttpFigures {
  connections: number;
  seconds: number;
  transfer: { requestsPerSecond: number; p50Ms: number; p99Ms: number; non2xx: number; errors: number };
  baseline: { requestsPerSecond: number; p50Ms: number; p99Ms: number; non2xx: number; errors: number };
  ratioToBaseline: number;
  pinChecksPerSecond: number;
  ratioToPinCeiling: number;
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
}

export interface HttpLoadOptions {
  users: number;
  connections: number;
  durationSeconds: number;
  log: (line: string) => void;
}

const PIN = '1234';
const PROBE_INTERVAL_MS = 20;
const PROBE_TIMEOUT_MS = 5_000;

export async function benchHttp(database: BenchDatabase, options: HttpLoadOptions): Promise<{ http: HttpFigures; lag: LagFigures; rss: RssFigures }> {
  const cluster = createCluster(database.url);
  try {
    const api = await cluster.spawn('api', 'bench-api');
    const worker = await cluster.spawn('worker', 'bench-worker');
    const baseUrl = (): string => api.url;
    // The PIN check's ceiling first, on a quiet machine: the API's pool may still be
    // working through queued checks after a run.
    const pinChecksPerSecond = await pinCeiling(options.durationSeconds);
    options.log(`B2 creating and funding ${options.users} users over HTTP...`);
    const { wallets } = await createFundedWallets(baseUrl, options.users, Date.now() + 10 * 60_000);

    options.log(`B2 baseline: authenticated get-user-info, ${options.connections} connections, ${options.durationSeconds} s...`);
    const baseline = await cannon(api.url, options, (request) => {
      const user = pick(wallets);
      return { ...request, headers: { ...request.headers, authorization: `Bearer ${user.token}` }, body: '{}' };
    }, '/api/users/get-user-info');

    options.log(`B2 transfer-funds, ${options.connections} connections, ${options.durationSeconds} s, with the B3 lag probe...`);
    const probe = startLagProbe(database.url, wallets);
    const transfer = await cannon(api.url, options, (request) => {
      const from = pick(wallets);
      let to = pick(wallets);
      while (to === from) to = pick(wallets);
      return {
        ...request,
        headers: { ...request.headers, authorization: `Bearer ${from.token}`, 'idempotency-key': randomUUID() },
        body: JSON.stringify({ receiver: to.id, amount: 1, reference: 'bench', transactionPin: PIN }),
      };
    }, '/api/transactions/transfer-funds');
    const lags = await probe.stop();

    const rss = { apiPeakMiB: peakRssMiB(api.child?.pid), workerPeakMiB: peakRssMiB(worker.child?.pid) };
    const http: HttpFigures = {
      connections: options.connections,
      seconds: options.durationSeconds,
      transfer,
      baseline,
      ratioToBaseline: transfer.requestsPerSecond / baseline.requestsPerSecond,
      pinChecksPerSecond,
      ratioToPinCeiling: transfer.requestsPerSecond / pinChecksPerSecond,
    };
    const lag: LagFigures = { samples: lags.length, p50Ms: median(lags), p99Ms: percentile(lags, 99), maxMs: Math.max(0, ...lags) };
    options.log(`B2 transfer-funds ${transfer.requestsPerSecond.toFixed(1)}/s (p99 ${transfer.p99Ms} ms), baseline ${baseline.requestsPerSecond.toFixed(0)}/s, PIN ceiling ${pinChecksPerSecond.toFixed(1)}/s; B3 lag p99 ${lag.p99Ms.toFixed(1)} ms; RSS api ${rss.apiPeakMiB} MiB, worker ${rss.workerPeakMiB} MiB`);
    return { http, lag, rss };
  } finally {
    await cluster.stopAll();
  }
}

function pick<T>(list: readonly T[]): T {
  return list[randomInt(list.length)] as T;
}

type Request = { method: string; path: string; headers: Record<string, string>; body?: string };

async function cannon(url: string, options: HttpLoadOptions, setup: (request: Request) => Request, path: string): Promise<HttpFigures['transfer']> {
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.durationSeconds,
    timeout: 30,
    requests: [{ method: 'POST', path, headers: { 'content-type': 'application/json' }, setupRequest: setup as never }],
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
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
      await ledger.transfer({ transferId, fromAccountId: payer.id, toAccountId: payee.id, amountPaise: 100n, reference: 'lag probe' }, { actorId: payer.id });
      const committed = performance.now();
      for (;;) {
        const { rowCount } = await poller.query('select 1 from read.history where transaction_id = $1 limit 1', [transferId]);
        if (rowCount) break;
        if (performance.now() - committed > PROBE_TIMEOUT_MS) throw new Error(`transfer ${transferId} not in read.history after ${PROBE_TIMEOUT_MS} ms`);
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
async function pinCeiling(durationSeconds: number): Promise<number> {
  const hash = await hashPin(PIN);
  const result = await measureThroughput(4, Math.min(durationSeconds, 5) * 1000, async () => {
    if (!(await pinMatches(hash, PIN))) throw new Error('PIN mismatch');
  });
  return result.operationsPerSecond;
}

/** The process's peak resident set (VmHWM), in MiB. */
function peakRssMiB(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN);
  return Math.round(kib / 1024);
}
