/**
 * B6 scale-out: the same mixed load against one API and one worker process (B2's shape) and
 * then against two APIs and two workers on the same database, the clients spread over the
 * APIs' ports round-robin (autocannon's connection i goes to port i mod n), as a load balancer
 * would. The load is transfer-funds (as B2, warm users) at `transferConnections` and, at the
 * same time, the history page (`get-all-transactions-by-user`, page 1: the read a replica would
 * take) at `readConnections`. Each setup gets an unmeasured warm-up of the same load first
 * (the second API and worker have just started). Reported: transfers/s and p99, reads/s and
 * p50/p99, each scale-out figure against the one-API figure of the same run.
 *
 * Reads from a replica are a third row: `replica` gives the environment that points the APIs'
 * reads at a hot standby of `database` (READ_DATABASE_URL); two fresh APIs are started with it
 * (the first two stop) and the load runs over them. Without it the row is reported as not run.
 */
import { createCluster, type ManagedProcess } from '../reliability/processes.ts';
import { createFundedWallets, type Wallet } from '../reliability/money-load.ts';
import { cannon, pick, transferRequests, type CannonFigures, type Request } from './http-load.ts';
import type { BenchDatabase } from './harness.ts';

export interface ReplicaForBench {
  /** Added to the scale-out APIs' environment (READ_DATABASE_URL of the standby). */
  apiEnv: Record<string, string>;
}

export interface ScaleOutOptions {
  users: number;
  transferConnections: number;
  readConnections: number;
  durationSeconds: number;
  /** A read replica of `database`; undefined: the replica row is not run. */
  replica?: ReplicaForBench;
  log: (line: string) => void;
}

export interface ScaleOutRow {
  setup: string;
  apis: number;
  workers: number;
  transfers: CannonFigures;
  reads: CannonFigures;
}

export interface ScaleOutFigures {
  seconds: number;
  transferConnections: number;
  readConnections: number;
  single: ScaleOutRow;
  scaled: ScaleOutRow;
  /** undefined: not run (no replica given). */
  replica: ScaleOutRow | undefined;
}

const HISTORY_PAGE = '/api/transactions/get-all-transactions-by-user';

export async function benchScaleOut(
  database: Pick<BenchDatabase, 'runtimeUrl'>,
  options: ScaleOutOptions,
): Promise<ScaleOutFigures> {
  const cluster = createCluster(database.runtimeUrl);
  const replica = options.replica;
  try {
    const [api1] = await Promise.all([
      cluster.spawn('api', 'bench-scale-api-1'),
      cluster.spawn('worker', 'bench-scale-worker-1'),
    ]);
    options.log(`B6 creating and funding ${options.users} users over HTTP...`);
    const { wallets } = await createFundedWallets(() => api1.url, options.users, Date.now() + 10 * 60_000);
    const run = async (setup: string, apis: ManagedProcess[], workers: number): Promise<ScaleOutRow> => {
      // Unmeasured first: a process just started is still compiling its hot paths.
      const warmUpSeconds = Math.max(2, Math.round(options.durationSeconds / 4));
      options.log(`B6 ${setup}: ${warmUpSeconds} s warm-up, ${options.durationSeconds} s measured...`);
      await mixedLoad(apis, wallets, { ...options, durationSeconds: warmUpSeconds });
      return { setup, apis: apis.length, workers, ...(await mixedLoad(apis, wallets, options)) };
    };
    const single = await run('1 API + 1 worker', [api1], 1);

    const [api2] = await Promise.all([
      cluster.spawn('api', 'bench-scale-api-2'),
      cluster.spawn('worker', 'bench-scale-worker-2'),
    ]);
    const scaled = await run('2 APIs + 2 workers, round-robin', [api1, api2 as ManagedProcess], 2);

    let replicaRow: ScaleOutRow | undefined;
    if (replica) {
      // Fresh APIs reading from the standby; the first two stop so the machine runs two APIs again.
      await Promise.all([api1.stop(), (api2 as ManagedProcess).stop()]);
      const readers = await Promise.all([
        cluster.spawn('api', 'bench-scale-api-replica-1', replica.apiEnv),
        cluster.spawn('api', 'bench-scale-api-replica-2', replica.apiEnv),
      ]);
      replicaRow = await run('2 APIs + 2 workers, reads from a replica', readers, 2);
    }
    const figures: ScaleOutFigures = {
      seconds: options.durationSeconds,
      transferConnections: options.transferConnections,
      readConnections: options.readConnections,
      single,
      scaled,
      replica: replicaRow,
    };
    options.log(
      `B6 transfers/s ${single.transfers.requestsPerSecond.toFixed(1)} -> ${scaled.transfers.requestsPerSecond.toFixed(1)}, ` +
        `read p99 ${single.reads.p99Ms} -> ${scaled.reads.p99Ms} ms`,
    );
    return figures;
  } finally {
    await cluster.stopAll();
  }
}

/** Transfers and history reads at the same time, over every API's port. */
async function mixedLoad(
  apis: readonly ManagedProcess[],
  wallets: readonly Wallet[],
  options: ScaleOutOptions,
): Promise<{ transfers: CannonFigures; reads: CannonFigures }> {
  const urls = apis.map((api) => api.url);
  const historyPage = (request: Request): Request => ({
    ...request,
    headers: { ...request.headers, authorization: `Bearer ${pick(wallets).token}` },
    body: JSON.stringify({ page: 1 }),
  });
  const [transfers, reads] = await Promise.all([
    cannon(
      urls,
      options.transferConnections,
      options.durationSeconds,
      '/api/transactions/transfer-funds',
      transferRequests(wallets),
    ),
    cannon(urls, options.readConnections, options.durationSeconds, HISTORY_PAGE, historyPage),
  ]);
  return { transfers, reads };
}

/** The B6 table: each setup's figures and the ratio to the one-API run of the same bench run. */
export function printScaleOut(figures: ScaleOutFigures): void {
  console.log(
    `\nB6 scale-out (autocannon: transfer-funds at ${figures.transferConnections} connections and the history page at ${figures.readConnections}, at the same time, ${figures.seconds} s; connections round-robin over the APIs' ports)`,
  );
  const base = figures.single;
  const row = (candidate: ScaleOutRow) => ({
    setup: candidate.setup,
    'transfers/s': candidate.transfers.requestsPerSecond.toFixed(1),
    'x 1 API': (candidate.transfers.requestsPerSecond / base.transfers.requestsPerSecond).toFixed(2),
    'transfer p99 ms': candidate.transfers.p99Ms,
    'reads/s': candidate.reads.requestsPerSecond.toFixed(1),
    'read p50 ms': candidate.reads.p50Ms,
    'read p99 ms': candidate.reads.p99Ms,
    'read p99 x 1 API': (candidate.reads.p99Ms / Math.max(1, base.reads.p99Ms)).toFixed(2),
    'non-2xx / errors': `${candidate.transfers.non2xx + candidate.reads.non2xx} / ${candidate.transfers.errors + candidate.reads.errors}`,
  });
  const notRun = {
    setup: '2 APIs + 2 workers, reads from a replica',
    'transfers/s': 'not yet run',
    'x 1 API': '',
    'transfer p99 ms': '',
    'reads/s': '',
    'read p50 ms': '',
    'read p99 ms': '',
    'read p99 x 1 API': '',
    'non-2xx / errors': '',
  };
  console.table([row(base), row(figures.scaled), figures.replica ? row(figures.replica) : notRun]);
  if (!figures.replica)
    console.log('replica row: not yet run (needs READ_DATABASE_URL and a hot standby of the bench database)');
}
