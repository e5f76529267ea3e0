/**
 * `npm run bench [-- --quick]`: runs the benchmarks on a fresh embedded Postgres, prints a
 * table of figures with their same-run baselines and ratios, and writes
 * bench/results/latest.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { benchLedgerCore, type LedgerCoreRow } from './ledger-core.ts';
import { startBenchDatabase } from './harness.ts';

const quick = process.argv.includes('--quick');
const log = (line: string) => console.error(`[bench] ${line}`);

const database = await startBenchDatabase();
try {
  const started = Date.now();
  const ledgerCore = await benchLedgerCore(database, {
    wallets: quick ? 2_000 : 10_000,
    hotWallets: 10,
    clientCounts: [1, 8, 32],
    durationMs: quick ? 2_000 : 5_000,
    repeats: quick ? 1 : 3,
    log,
  });
  printLedgerCore(ledgerCore);
  const result = {
    recordedAt: new Date().toISOString(),
    quick,
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
    durationSeconds: Math.round((Date.now() - started) / 1000),
    b1LedgerCore: ledgerCore,
  };
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('./results/latest.json', import.meta.url), JSON.stringify(result, null, 2));
  console.log(`\nwritten bench/results/latest.json (${result.durationSeconds}s)`);
} finally {
  await database.stop();
}

function printLedgerCore(rows: readonly LedgerCoreRow[]): void {
  console.log('\nB1 ledger core (transfers/s through the command functions; median of repeats)');
  console.table(
    rows.map((row) => ({
      wallets: row.distribution,
      clients: row.clients,
      'transfer/s': Math.round(row.transfersPerSecond),
      'minimal transfer/s': Math.round(row.minimalTransferPerSecond),
      'commit ceiling/s': Math.round(row.commitCeilingPerSecond),
      'x minimal': row.ratioToMinimal.toFixed(2),
      'x ceiling': row.ratioToCeiling.toFixed(2),
      target: row.clients === 32 ? (row.ratioToMinimal >= 0.5 ? 'met (>= 0.5x minimal)' : 'MISSED (< 0.5x minimal)') : '',
    })),
  );
}
