/**
 * B1's emmett peer, in a process of its own (`node bench/peers/emmett-process.ts '<options>'`,
 * started by emmett.ts): emmett's dumbo replaces the `pg` module's json/jsonb parsers for the
 * whole process, which must not reach the ledger's runs or the benchmarks after B1.
 * Opens and funds the wallets (untimed), then runs B1's load - its pairs, its closed-loop
 * clients, its durations and repeats - over all the wallets (uniform) and over the first
 * `hotWallets` (hot), and prints one JSON object (PeerProcessResult) on stdout; logs go to stderr.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { measureThroughput, median, type ThroughputResult } from '../harness.ts';
import { pairs, walletId } from '../ledger-core.ts';
import { createWalletPeer } from './emmett-wallet.ts';
import type { PeerProcessOptions, PeerProcessResult, PeerProcessRow } from './emmett.ts';

const options = JSON.parse(process.argv[2] ?? '{}') as PeerProcessOptions;
const log = (line: string) => console.error(`[bench] ${line}`);
const AMOUNT_PAISE = 100;
/** Wallets opened at once, as B1's seedWallets does. */
const OPEN_BATCH = 16;

const { version } = JSON.parse(
  readFileSync(new URL('../../node_modules/@event-driven-io/emmett-postgresql/package.json', import.meta.url), 'utf8'),
) as { version: string };
const peer = createWalletPeer(options.url, options.clients + 4);
try {
  const seedStarted = performance.now();
  // The first wallet alone: Pongo creates the projection's table (CREATE TABLE IF NOT EXISTS)
  // on an append, and two first appends at once raced to create its row type ("type
  // wallet_balances already exists").
  if (options.wallets > 0) await peer.open(walletId(0), options.openingPaise);
  for (let start = 1; start < options.wallets; start += OPEN_BATCH) {
    await Promise.all(
      Array.from({ length: Math.min(OPEN_BATCH, options.wallets - start) }, (_, offset) =>
        peer.open(walletId(start + offset), options.openingPaise),
      ),
    );
  }
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  log(`B1 peer emmett ${version}: ${options.wallets} wallets opened and funded in ${seedSeconds.toFixed(1)} s`);

  const rows: PeerProcessRow[] = [];
  for (const distribution of ['uniform', 'hot'] as const) {
    const population = distribution === 'uniform' ? options.wallets : options.hotWallets;
    const before = peer.counters();
    const errorKinds = new Map<string, number>();
    const samples: ThroughputResult[] = [];
    const cpuBefore = process.cpuUsage();
    for (let repeat = 0; repeat < options.repeats; repeat++) {
      // B1's draw for this repeat and client count: the same pairs in the same order.
      const pick = pairs(population, repeat * 1000 + options.clients);
      samples.push(
        await measureThroughput(options.clients, options.durationMs, async () => {
          const [from, to] = pick();
          try {
            await peer.transfer(randomUUID(), walletId(from), walletId(to), AMOUNT_PAISE);
          } catch (error) {
            const kind = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
            errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1);
            throw error;
          }
        }),
      );
    }
    const after = peer.counters();
    const cpu = process.cpuUsage(cpuBefore);
    const operations = samples.reduce((sum, sample) => sum + sample.operations, 0);
    const row: PeerProcessRow = {
      distribution,
      clients: options.clients,
      transfersPerSecond: median(samples.map((sample) => sample.operationsPerSecond)),
      errors: samples.reduce((sum, sample) => sum + sample.errors, 0),
      conflictRetries: after.conflictRetries - before.conflictRetries,
      debitedNotCredited: after.debitedNotCredited - before.debitedNotCredited,
    };
    log(
      `B1 peer emmett ${distribution} x${row.clients}: ${row.transfersPerSecond.toFixed(0)}/s (errors ${row.errors}, ` +
        `version-conflict retries ${row.conflictRetries}, debited but not credited ${row.debitedNotCredited}; ` +
        `this process's CPU ${((cpu.user + cpu.system) / 1000 / Math.max(1, operations)).toFixed(2)} ms per transfer)` +
        (errorKinds.size > 0
          ? `; errors: ${[...errorKinds].map(([kind, count]) => `${count} x ${kind.slice(0, 120)}`).join('; ')}`
          : ''),
    );
    rows.push(row);
  }

  // Every transfer moved 100 paise out of one wallet and into another, or only out of one
  // (debited, never credited): the balances read model must add up to that.
  const projected = await peer.projectedBalances();
  const lost = peer.counters().debitedNotCredited * AMOUNT_PAISE;
  const expectedTotalPaise = options.wallets * options.openingPaise - lost;
  const result: PeerProcessResult = {
    peer: `@event-driven-io/emmett-postgresql@${version}`,
    rows,
    check: {
      wallets: options.wallets,
      seedSeconds,
      balanceDocuments: projected.documents,
      projectedTotalPaise: projected.totalPaise,
      expectedTotalPaise,
      lostPaise: lost,
      balancesAddUp: projected.documents === options.wallets && projected.totalPaise === expectedTotalPaise,
    },
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await peer.close();
}
