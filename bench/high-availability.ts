/**
 * B7 high availability: what synchronous replication and the router cost a payment.
 *
 * The same load - transfer-funds from warm users at `connections` (B2's shape), one API and one
 * worker process - against three databases built from the same PostgreSQL 15 binaries and
 * settings (reliability/patroni-cluster.ts NODE_PARAMETERS, data checksums, fsync on):
 *   - a single server, the API connected to it directly (the baseline);
 *   - the high-availability topology as deployed: three Patroni nodes with strict synchronous
 *     replication behind HAProxy (DATABASE_URL at its primary port, READ_DATABASE_URL at its
 *     replica port), so every acknowledged payment is on two servers;
 *   - the same cluster once more after a clean switchover, with the processes kept running (what
 *     the wallet runs at after a failover drill or a planned maintenance);
 *   - the same topology with asynchronous replication (the unsafe mode), which separates the
 *     price of waiting for the standby from the price of the router and the extra servers.
 * Each setup gets an unmeasured warm-up of the same load first. Reported: transfers/s with p50 and
 * p99, each against the single server of the same run.
 */
import { createFundedWallets, type Wallet } from '../reliability/money-load.ts';
import { NODE_PARAMETERS, startPatroniCluster, type PatroniCluster } from '../reliability/patroni-cluster.ts';
import { createCluster, type Cluster, type ManagedProcess } from '../reliability/processes.ts';
import { startSingleNode } from '../test/hot-standby.ts';
import { cannon, transferRequests, type CannonFigures } from './http-load.ts';

export interface HighAvailabilityOptions {
  users: number;
  connections: number;
  durationSeconds: number;
  log: (line: string) => void;
}

export interface HighAvailabilityRow {
  setup: string;
  transfers: CannonFigures;
  /** transfers/s against the single server's of the same run. */
  ratioToSingle: number;
}

export interface HighAvailabilityFigures {
  seconds: number;
  connections: number;
  rows: HighAvailabilityRow[];
}

const TRANSFER = '/api/transactions/transfer-funds';

export async function benchHighAvailability(options: HighAvailabilityOptions): Promise<HighAvailabilityFigures> {
  const measured: { setup: string; transfers: CannonFigures }[] = [];

  options.log('B7 single PostgreSQL 15 server...');
  const single = await startSingleNode({
    durable: true,
    checksums: true,
    settings: Object.fromEntries(Object.entries(NODE_PARAMETERS).map(([name, value]) => [name, String(value)])),
  });
  try {
    await withApplication(single.primaryUrl, {}, options, async (api, wallets) => {
      measured.push({ setup: 'single server, direct', transfers: await warmThenMeasure(api, wallets, options) });
    });
  } finally {
    await single.stop();
  }

  for (const synchronous of [true, false]) {
    const mode = synchronous ? 'synchronous (strict)' : 'asynchronous (unsafe)';
    options.log(`B7 Patroni, 3 nodes, ${mode}, behind HAProxy...`);
    const patroni = await startPatroniCluster({
      synchronous,
      logPrefix: synchronous ? 'bench-ha-sync' : 'bench-ha-async',
    });
    try {
      await withApplication(
        patroni.primaryUrl,
        { READ_DATABASE_URL: patroni.replicaUrl },
        options,
        async (api, wallets) => {
          measured.push({
            setup: `Patroni 3 nodes, ${mode}, via HAProxy`,
            transfers: await warmThenMeasure(api, wallets, options),
          });
          if (synchronous) {
            await switchOver(patroni, options);
            measured.push({
              setup: `the same, after a switchover`,
              transfers: await warmThenMeasure(api, wallets, options),
            });
          }
        },
      );
    } finally {
      await patroni.stop();
    }
  }

  const baseline = measured[0]?.transfers.requestsPerSecond ?? Number.NaN;
  return {
    seconds: options.durationSeconds,
    connections: options.connections,
    rows: measured.map((row) => ({ ...row, ratioToSingle: row.transfers.requestsPerSecond / baseline })),
  };
}

export function printHighAvailability(figures: HighAvailabilityFigures): void {
  console.log(
    `\nB7 high availability (transfer-funds, ${figures.connections} connections, ${figures.seconds} s, 1 API + 1 worker)`,
  );
  console.table(
    figures.rows.map((row) => ({
      setup: row.setup,
      'transfers/s': row.transfers.requestsPerSecond.toFixed(1),
      'x single': row.ratioToSingle.toFixed(2),
      'p50 ms': row.transfers.p50Ms,
      'p99 ms': row.transfers.p99Ms,
      'non-2xx / errors': `${row.transfers.non2xx} / ${row.transfers.errors}`,
    })),
  );
}

async function withApplication(
  databaseUrl: string,
  env: Record<string, string>,
  options: HighAvailabilityOptions,
  body: (api: ManagedProcess, wallets: Wallet[]) => Promise<void>,
): Promise<void> {
  const apps: Cluster = createCluster(databaseUrl);
  try {
    const [api] = await Promise.all([
      apps.spawn('api', 'bench-ha-api', env),
      apps.spawn('worker', 'bench-ha-worker', env),
    ]);
    options.log(`B7 creating and funding ${options.users} users over HTTP...`);
    const { wallets } = await createFundedWallets(() => api.url, options.users, Date.now() + 10 * 60_000);
    await body(api, wallets);
  } finally {
    await apps.stopAll();
  }
}

async function warmThenMeasure(
  api: ManagedProcess,
  wallets: readonly Wallet[],
  options: HighAvailabilityOptions,
): Promise<CannonFigures> {
  const warmUpSeconds = Math.max(2, Math.round(options.durationSeconds / 4));
  await cannon(api.url, options.connections, warmUpSeconds, TRANSFER, transferRequests(wallets));
  const figures = await cannon(
    api.url,
    options.connections,
    options.durationSeconds,
    TRANSFER,
    transferRequests(wallets),
  );
  options.log(`B7 ${figures.requestsPerSecond.toFixed(1)} transfers/s, p99 ${figures.p99Ms} ms`);
  return figures;
}

/** A clean switchover to the synchronous standby, waited for until every member streams again. */
async function switchOver(patroni: PatroniCluster, options: HighAvailabilityOptions): Promise<void> {
  const members = await patroni.members();
  const candidate = members.find((member) => member.role === 'sync_standby')?.name;
  const switched = await patroni.switchover(candidate);
  if (switched.status !== 200) throw new Error(`switchover refused: ${switched.status} ${switched.body}`);
  const leader = await patroni.waitForLeader((name) => name !== switched.from, 60_000);
  await patroni.waitForHealthyMembers(patroni.nodes.length, 120_000);
  options.log(`B7 switched over from ${switched.from} to ${leader}`);
}

// `node bench/high-availability.ts [--quick]`: B7 alone (npm run bench runs it with the rest).
if (import.meta.main) {
  const quick = process.argv.includes('--quick');
  printHighAvailability(
    await benchHighAvailability({
      users: quick ? 8 : 16,
      connections: 64,
      durationSeconds: quick ? 8 : 20,
      log: (line) => console.error(`[bench] ${line}`),
    }),
  );
}
