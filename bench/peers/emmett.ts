/**
 * B1's peer row: the event store a TypeScript team would pick instead of this ledger,
 * @event-driven-io/emmett-postgresql, doing B1's transfers (100 paise from one wallet to
 * another, the same wallet counts, 'uniform' and 'hot', B1's clients, durations and repeats)
 * on the bench's Postgres server, in a fresh database of its own. The model and its atomicity
 * caveat (debit and credit are two transactions) are in emmett-wallet.ts; the load runs in a
 * child process (emmett-process.ts), because emmett's dumbo changes the `pg` module's parsers
 * process-wide. Its ratios to our ledger are set in ledger-core.ts.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchDatabase } from '../harness.ts';

export interface PeerProcessOptions {
  /** The peer's own database (the owner's URL). */
  url: string;
  wallets: number;
  hotWallets: number;
  clients: number;
  durationMs: number;
  repeats: number;
  /** Each wallet's opening deposit, as B1's seeding (rupees(100_000)). */
  openingPaise: number;
}

export interface PeerProcessRow {
  distribution: 'uniform' | 'hot';
  clients: number;
  /** Median over the repeats of completed transfers (debit and credit both appended) per second. */
  transfersPerSecond: number;
  /** Failed transfers over all repeats. */
  errors: number;
  /** Commands re-run after an ExpectedVersionConflictError, over all repeats. */
  conflictRetries: number;
  /** Transfers whose debit was appended and whose credit failed after its retries (money left in no wallet). */
  debitedNotCredited: number;
}

export interface B1PeerCheck {
  peer: string;
  wallets: number;
  /** Opening and funding the wallets, before the timed runs. */
  seedSeconds: number;
  /** Documents in the inline projection's collection and their balances' total, after every run. */
  balanceDocuments: number;
  projectedTotalPaise: number;
  /** Opening deposits less what debitedNotCredited took out. */
  expectedTotalPaise: number;
  lostPaise: number;
  balancesAddUp: boolean;
}

export interface PeerProcessResult {
  peer: string;
  rows: PeerProcessRow[];
  check: Omit<B1PeerCheck, 'peer'>;
}

export interface B1PeerRow extends PeerProcessRow {
  /** Package and version, e.g. '@event-driven-io/emmett-postgresql@0.42.0'. */
  peer: string;
  /** transfersPerSecond over our ledger's (B1's small-ledger row, same distribution and clients, same run). */
  ratioOfLedger: number;
}

export interface B1PeerFigures {
  rows: B1PeerRow[];
  check: B1PeerCheck;
}

const PROCESS_ENTRY = fileURLToPath(new URL('./emmett-process.ts', import.meta.url));

/** Runs the emmett peer in a fresh database of the bench server; ratios are left NaN for the caller. */
export async function benchEmmettPeer(
  database: BenchDatabase,
  options: Omit<PeerProcessOptions, 'url'>,
  log: (line: string) => void,
): Promise<B1PeerFigures> {
  log('B1 peer: @event-driven-io/emmett-postgresql in a fresh database (its own process)...');
  const peerDatabase = await database.fresh('bench_peer_emmett');
  const result = await runPeerProcess({ ...options, url: peerDatabase.url });
  const { peer } = result;
  const check: B1PeerCheck = { peer, ...result.check };
  log(
    `B1 peer check: ${check.balanceDocuments} balance documents, total ${check.projectedTotalPaise} paise against ` +
      `${check.expectedTotalPaise} expected (${check.lostPaise} paise debited and never credited): ` +
      (check.balancesAddUp ? 'the balances add up' : 'THE BALANCES DO NOT ADD UP'),
  );
  return { rows: result.rows.map((row) => ({ peer, ...row, ratioOfLedger: Number.NaN })), check };
}

function runPeerProcess(options: PeerProcessOptions): Promise<PeerProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PROCESS_ENTRY, JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code !== 0) {
        reject(new Error(`the emmett peer process exited with ${signal ?? code}; stdout: ${stdout.slice(-2000)}`));
        return;
      }
      try {
        resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as PeerProcessResult);
      } catch (error) {
        reject(new Error(`the emmett peer printed no result: ${String(error)}; stdout: ${stdout.slice(-2000)}`));
      }
    });
  });
}
