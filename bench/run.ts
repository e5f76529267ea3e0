/**
 * `npm run bench [-- --quick]`: runs every benchmark on a fresh embedded Postgres (fsync on),
 * each in its own fresh database, prints a table per benchmark with its same-run baselines and
 * ratios and a summary of the targets, and writes bench/results/latest.json.
 * `--quick` (under 3 minutes) runs smaller sizes and shorter runs; its figures are noisier.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { benchLedgerCore, type LedgerCoreRow } from './ledger-core.ts';
import { benchHttp, type HttpFigures, type LagFigures, type RssFigures } from './http-load.ts';
import { benchRebuildAndRead, type ReadFigures, type ReplayFigures } from './rebuild-and-read.ts';
import { startBenchDatabase } from './harness.ts';

const quick = process.argv.includes('--quick');
const log = (line: string) => console.error(`[bench] ${line}`);

/** The targets, as ratios against same-run baselines where there is one. */
const TARGETS = {
  b1RatioToMinimal: 0.5,
  b2RatioToBaseline: 0.5,
  b3P99Ms: 100,
  b4EventsPerSecond: 100_000,
  b5P99Ms: 20,
  apiRssMiB: 300,
} as const;

const started = Date.now();
const database = await startBenchDatabase();
try {
  const ledgerCore = await benchLedgerCore(database, {
    wallets: quick ? 2_000 : 10_000,
    hotWallets: 10,
    clientCounts: [1, 8, 32],
    durationMs: quick ? 2_000 : 5_000,
    repeats: quick ? 1 : 3,
    log,
  });
  const { http, lag, rss } = await benchHttp(await database.fresh('bench_http'), {
    users: quick ? 8 : 32,
    connections: 64,
    durationSeconds: quick ? 8 : 30,
    log,
  });
  const { replay, reads } = await benchRebuildAndRead(await database.fresh('bench_replay'), {
    events: quick ? 100_000 : 1_000_000,
    hubShare: 0.1,
    samples: quick ? 200 : 1_000,
    log,
  });

  printLedgerCore(ledgerCore);
  printHttp(http, lag, rss);
  printReplay(replay);
  printReads(reads);
  const targets = targetRows(ledgerCore, http, lag, replay, reads, rss);
  console.log('\nTargets (ratios against baselines measured in this run)');
  console.table(targets);

  const result = {
    recordedAt: new Date().toISOString(),
    quick,
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version, loadAverage: os.loadavg() },
    durationSeconds: Math.round((Date.now() - started) / 1000),
    b1LedgerCore: ledgerCore,
    b2Http: http,
    b3ProjectionLag: lag,
    b4Replay: replay,
    b5Reads: reads,
    peakRss: rss,
    targets,
  };
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('./results/latest.json', import.meta.url), JSON.stringify(result, null, 2));
  console.log(`\nwritten bench/results/latest.json (${result.durationSeconds}s)`);
} finally {
  await database.stop();
}

function verdict(met: boolean): string {
  return met ? 'met' : 'MISSED';
}

function printLedgerCore(rows: readonly LedgerCoreRow[]): void {
  console.log('\nB1 ledger core (transfers/s through the command functions, no HTTP; median of repeats)');
  console.table(
    rows.map((row) => ({
      wallets: row.distribution,
      clients: row.clients,
      'transfer/s': Math.round(row.transfersPerSecond),
      'minimal transfer/s': Math.round(row.minimalTransferPerSecond),
      'commit ceiling/s': Math.round(row.commitCeilingPerSecond),
      'x minimal': row.ratioToMinimal.toFixed(2),
      'x ceiling': row.ratioToCeiling.toFixed(2),
    })),
  );
}

function printHttp(http: HttpFigures, lag: LagFigures, rss: RssFigures): void {
  console.log(`\nB2 HTTP (autocannon, ${http.connections} connections, ${http.seconds} s each)`);
  console.table([
    { request: 'POST transfer-funds (PIN + transfer)', 'req/s': http.transfer.requestsPerSecond.toFixed(1), 'p50 ms': http.transfer.p50Ms, 'p99 ms': http.transfer.p99Ms, 'non-2xx': http.transfer.non2xx, errors: http.transfer.errors },
    { request: 'baseline: authenticated get-user-info', 'req/s': http.baseline.requestsPerSecond.toFixed(1), 'p50 ms': http.baseline.p50Ms, 'p99 ms': http.baseline.p99Ms, 'non-2xx': http.baseline.non2xx, errors: http.baseline.errors },
    { request: 'PIN ceiling: bcrypt cost-12 compares', 'req/s': http.pinChecksPerSecond.toFixed(1), 'p50 ms': '', 'p99 ms': '', 'non-2xx': '', errors: '' },
  ]);
  console.log(`transfer-funds = ${http.ratioToBaseline.toFixed(3)}x the baseline, ${http.ratioToPinCeiling.toFixed(2)}x the PIN ceiling`);
  console.log('\nB3 projection lag during B2 (commit acknowledged -> row in read.history)');
  console.table([{ samples: lag.samples, 'p50 ms': lag.p50Ms.toFixed(1), 'p99 ms': lag.p99Ms.toFixed(1), 'max ms': lag.maxMs.toFixed(1) }]);
  console.log('\nPeak RSS (VmHWM after B2)');
  console.table([{ process: 'API', MiB: rss.apiPeakMiB }, { process: 'worker', MiB: rss.workerPeakMiB }]);
}

function printReplay(replay: ReplayFigures): void {
  console.log(`\nB4 replay (${replay.events.toLocaleString()} events seeded through ledger.append in ${replay.seedSeconds.toFixed(0)} s; every projection rebuilt)`);
  console.table([
    ...replay.projections.map((row) => ({ projection: row.name, events: row.events, seconds: row.seconds.toFixed(1), 'events/s': Math.round(row.eventsPerSecond) })),
    { projection: 'all (log events / total time)', events: replay.events, seconds: replay.seconds.toFixed(1), 'events/s': Math.round(replay.eventsPerSecond) },
  ]);
}

function printReads(reads: readonly ReadFigures[]): void {
  const first = reads[0];
  console.log(`\nB5 reads (one user with ${first?.userRows.toLocaleString()} history rows among ${first?.totalRows.toLocaleString()})`);
  console.table(reads.map((row) => ({ query: row.query, samples: row.samples, 'p50 ms': row.p50Ms.toFixed(1), 'p99 ms': row.p99Ms.toFixed(1) })));
}

function targetRows(b1: readonly LedgerCoreRow[], http: HttpFigures, lag: LagFigures, replay: ReplayFigures, reads: readonly ReadFigures[], rss: RssFigures) {
  const at32 = (distribution: LedgerCoreRow['distribution']) => b1.find((row) => row.distribution === distribution && row.clients === 32);
  const rows: { figure: string; measured: string; target: string; verdict: string }[] = [];
  for (const distribution of ['uniform', 'hot'] as const) {
    const row = at32(distribution);
    if (row) rows.push({ figure: `B1 ${distribution}, 32 clients`, measured: `${row.ratioToMinimal.toFixed(2)}x minimal`, target: `>= ${TARGETS.b1RatioToMinimal}x`, verdict: verdict(row.ratioToMinimal >= TARGETS.b1RatioToMinimal) });
  }
  rows.push({ figure: 'B2 transfer-funds', measured: `${http.ratioToBaseline.toFixed(3)}x baseline (${http.ratioToPinCeiling.toFixed(2)}x PIN ceiling)`, target: `>= ${TARGETS.b2RatioToBaseline}x`, verdict: verdict(http.ratioToBaseline >= TARGETS.b2RatioToBaseline) });
  rows.push({ figure: 'B3 lag p99', measured: `${lag.p99Ms.toFixed(1)} ms`, target: `<= ${TARGETS.b3P99Ms} ms`, verdict: verdict(lag.samples > 0 && lag.p99Ms <= TARGETS.b3P99Ms) });
  rows.push({ figure: 'B4 replay', measured: `${Math.round(replay.eventsPerSecond).toLocaleString()} events/s`, target: `>= ${TARGETS.b4EventsPerSecond.toLocaleString()}`, verdict: verdict(replay.eventsPerSecond >= TARGETS.b4EventsPerSecond) });
  for (const read of reads) rows.push({ figure: `B5 ${read.query} p99`, measured: `${read.p99Ms.toFixed(1)} ms`, target: `<= ${TARGETS.b5P99Ms} ms`, verdict: verdict(read.p99Ms <= TARGETS.b5P99Ms) });
  rows.push({ figure: 'API peak RSS', measured: `${rss.apiPeakMiB} MiB`, target: `<= ${TARGETS.apiRssMiB} MiB`, verdict: verdict(rss.apiPeakMiB <= TARGETS.apiRssMiB) });
  rows.push({ figure: 'worker peak RSS', measured: `${rss.workerPeakMiB} MiB`, target: '(reported)', verdict: '' });
  return rows;
}
