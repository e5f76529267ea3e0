/**
 * `npm run drill -- failover`: a synchronous standby and automatic failover, shown under load.
 *
 * Builds a Patroni cluster (etcd, three PostgreSQL 15 nodes, HAProxy: reliability/patroni-cluster.ts),
 * runs the real API (DATABASE_URL = HAProxy's primary port, READ_DATABASE_URL = its replica
 * port) and a worker against it, and has `--clients` clients pay each other through the API for
 * `--seconds`, each payment under a random Idempotency-Key that it keeps through every retry
 * until a definite answer (2xx or 4xx). At `--kill-at` the primary's postmaster gets SIGKILL;
 * Patroni fails over to the synchronous standby. At `--switchover-at` a clean switchover
 * (Patroni REST POST /switchover) moves the primary again, to the old primary if it is the
 * synchronous standby by then. Then every acknowledged payment is looked up on the new primary:
 * lost = acknowledged but not in the ledger, doubled = in the ledger twice or a completed
 * transfer nobody was told about; verify = audit's verifyLedger and the balances.
 *
 * rtoSeconds: from the kill to the first payment that succeeded with an attempt sent after the
 * kill (the old primary's postmaster is dead by then, so it succeeded on the new primary).
 * switchoverSeconds: from the switchover request to the first payment that succeeded with an
 * attempt sent after Patroni reported the new leader running.
 *
 * paymentsPerSecondBefore / paymentsPerSecondAfter: payments acknowledged per second over two
 * windows of equal length W. Before: the W seconds up to the first disturbance (the stall of
 * replication when there is one, else the kill), on the cluster as first built. After: the W
 * seconds from the moment the switchover settled (the first payment acknowledged with an
 * attempt sent after Patroni reported the new leader, the end of switchoverSeconds), on the node
 * the switchover promoted. W is the longer window both fit in:
 * min(time from the load's start to the disturbance, time from the settling to the load's end).
 * A promoted node must serve payments as fast as the first primary did: `passed` needs
 * after >= before / 2 (bench/RESULTS.md, issue 40: JIT compilation made it 0.13x).
 *
 * `--async` runs the same drill with `synchronous_mode: false` (the deliberately unsafe mode):
 * a failover may then promote a standby that had not received the last acknowledged commits.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { openDatabase } from '../../platform/database.ts';
import type { Drill, DrillOutcome } from '../drill.ts';
import {
  checkInvariants,
  createFundedWallets,
  waitForProjections,
  type TransferOutcome,
  type Wallet,
} from '../money-load.ts';
import { startPatroniCluster, type PatroniCluster } from '../patroni-cluster.ts';
import { createCluster, sleep, type Cluster } from '../processes.ts';

const PIN = '1234';
const ATTEMPT_TIMEOUT_MS = 10_000;

export interface FailoverOptions {
  clients: number;
  seconds: number;
  killAt: number;
  switchoverAt: number;
  synchronous: boolean;
  nodes: number;
  /** SIGKILL the primary's whole Postgres (postmaster and every child at once), not only the postmaster. */
  killAll?: boolean;
  /** Stall the primary's walsenders (SIGSTOP) this long before the kill, as a congested link would. */
  stallMs?: number;
}

interface Success extends TransferOutcome {
  sentAt: number;
  answeredAt: number;
}

interface Tally {
  succeeded: Success[];
  non2xx: number;
  /** 5xx answers other than 503 database_unavailable with retry-after (a 500, or a 503 without it). */
  errors5xx: string[];
  networkErrors: number;
  unavailable: number;
}

/** Payments acknowledged per second before the first disturbance and after the switchover settled, over equal windows. */
export interface PaymentRates {
  paymentsPerSecondBefore: number | null;
  paymentsPerSecondAfter: number | null;
  /** The windows' common length, seconds. */
  rateWindowSeconds: number | null;
}

/** after must be at least this share of before (`passed`, reliability/failover-drill.test.ts). */
export const MIN_AFTER_TO_BEFORE = 0.5;

/**
 * The equal windows of paymentsPerSecondBefore/After (see the header): before ends at
 * `disturbedAt`, after starts at `settledAt`, each W = min(disturbedAt - loadStart,
 * loadEnd - settledAt) long; a payment counts in the window its answer arrived in.
 */
export function paymentRates(
  answeredAt: readonly number[],
  moments: { loadStart: number; disturbedAt: number; settledAt: number | null; loadEnd: number },
): PaymentRates {
  const { loadStart, disturbedAt, settledAt, loadEnd } = moments;
  if (settledAt === null)
    return { paymentsPerSecondBefore: null, paymentsPerSecondAfter: null, rateWindowSeconds: null };
  const windowMs = Math.min(disturbedAt - loadStart, loadEnd - settledAt);
  if (!(windowMs >= 1_000))
    return { paymentsPerSecondBefore: null, paymentsPerSecondAfter: null, rateWindowSeconds: null };
  const count = (from: number, to: number): number => answeredAt.filter((at) => at >= from && at < to).length;
  const perSecond = (payments: number): number => round(payments / (windowMs / 1000));
  return {
    paymentsPerSecondBefore: perSecond(count(disturbedAt - windowMs, disturbedAt)),
    paymentsPerSecondAfter: perSecond(count(settledAt, settledAt + windowMs)),
    rateWindowSeconds: round(windowMs / 1000),
  };
}

export function parseFailoverArgs(args: string[]): FailoverOptions {
  const { values } = parseArgs({
    args,
    options: {
      clients: { type: 'string', default: '32' },
      seconds: { type: 'string', default: '60' },
      'kill-at': { type: 'string' },
      'switchover-at': { type: 'string' },
      nodes: { type: 'string', default: '3' },
      async: { type: 'boolean', default: false },
      'kill-all': { type: 'boolean', default: false },
      'stall-replication-ms': { type: 'string', default: '0' },
    },
    strict: true,
  });
  const seconds = Number(values.seconds);
  const options: FailoverOptions = {
    clients: Number(values.clients),
    seconds,
    killAt: Number(values['kill-at'] ?? seconds / 3),
    switchoverAt: Number(values['switchover-at'] ?? (2 * seconds) / 3),
    synchronous: !values.async,
    nodes: Number(values.nodes),
    killAll: values['kill-all'],
    stallMs: Number(values['stall-replication-ms']),
  };
  if (
    !Number.isInteger(options.clients) ||
    options.clients < 1 ||
    !(options.killAt > 0 && options.killAt < options.switchoverAt && options.switchoverAt < options.seconds) ||
    !Number.isInteger(options.nodes) ||
    options.nodes < 2
  )
    throw new Error(`bad options: ${JSON.stringify(options)} (want 0 < kill-at < switchover-at < seconds, nodes >= 2)`);
  return options;
}

export async function runFailoverDrill(
  options: FailoverOptions,
  progress: (message: string) => void,
): Promise<DrillOutcome> {
  const started = Date.now();
  let patroni: PatroniCluster | undefined;
  let apps: Cluster | undefined;
  const cleanup = async (): Promise<void> => {
    await apps?.stopAll().catch(() => undefined);
    await patroni?.stop().catch(() => undefined);
  };
  const onSignal = (): void => {
    progress('interrupted: cleaning up');
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    progress(
      `failover drill: ${options.nodes} nodes, ${options.synchronous ? 'synchronous' : 'ASYNCHRONOUS (unsafe)'} replication, ${options.clients} clients for ${options.seconds} s, kill at ${options.killAt} s, switchover at ${options.switchoverAt} s`,
    );
    patroni = await startPatroniCluster({
      nodes: options.nodes,
      synchronous: options.synchronous,
      progress,
      logPrefix: options.synchronous ? 'failover' : 'failover-async',
    });
    apps = createCluster(patroni.primaryUrl);
    const [api] = await Promise.all([
      apps.spawn('api', 'failover-api', { READ_DATABASE_URL: patroni.replicaUrl }),
      apps.spawn('worker', 'failover-worker', { READ_DATABASE_URL: patroni.replicaUrl }),
    ]);
    const baseUrl = (): string => api.url;
    const setupDeadline = Date.now() + 180_000;
    const { wallets } = await createFundedWallets(baseUrl, Math.max(6, Math.ceil(options.clients / 2)), setupDeadline);
    progress(`API and worker up, ${wallets.length} wallets funded; load starts`);

    const tally: Tally = { succeeded: [], non2xx: 0, errors5xx: [], networkErrors: 0, unavailable: 0 };
    const loadStart = Date.now();
    const endAt = loadStart + options.seconds * 1000;
    const deadline = endAt + 120_000;
    const clients = Array.from({ length: options.clients }, () =>
      payLoop(api.url, wallets, () => Date.now() >= endAt, deadline, tally),
    );
    const reporter = setInterval(
      () =>
        progress(
          `t=${((Date.now() - loadStart) / 1000).toFixed(0)} s: ${tally.succeeded.length} acknowledged, ${tally.unavailable} x 503, ${tally.networkErrors} network errors, ${tally.errors5xx.length} other 5xx`,
        ),
      5_000,
    );

    const original = (await patroni.leader()) ?? 'node1';
    const stallMs = options.stallMs ?? 0;
    // Not waits for the system: the drill's timeline (the stall, the kill at killAt, the
    // switchover at switchoverAt); what follows each step waits for its condition.
    await sleep(loadStart + options.killAt * 1000 - stallMs - Date.now());
    // The end of paymentsPerSecondBefore's window: nothing has been done to the cluster yet.
    const disturbedAt = Date.now();
    if (stallMs > 0) {
      const stalled = await patroni.stallReplication(true);
      const before = tally.succeeded.length;
      await sleep(stallMs);
      progress(
        `${stalled} walsenders stalled (SIGSTOP) on the primary for ${stallMs} ms before the kill; ${tally.succeeded.length - before} payments acknowledged meanwhile`,
      );
    }
    const killedAt = Date.now();
    const killed = await patroni.killPrimaryPostmaster(options.killAll ?? false);
    if (stallMs > 0) await patroni.stallReplication(false);
    progress(`SIGKILL to ${killed}'s postmaster${options.killAll ? ' and all its children' : ''}`);
    const newLeader = await patroni.waitForLeader((name) => name !== killed, 60_000);
    progress(`Patroni promoted ${newLeader} ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill`);

    await sleep(loadStart + options.switchoverAt * 1000 - Date.now());
    // A switchover needs a candidate: in synchronous mode, the synchronous standby. Only the
    // leader and that standby are waited for: the killed node's rejoin (pg_rewind) may take
    // longer than the load lasts, and waiting for it would move the switchover past the load.
    await patroni.waitForHealthyMembers(Math.min(2, options.nodes), 60_000).catch((error: unknown) => {
      progress(`switchover: no synchronous standby yet (${(error as Error).message}); trying anyway`);
    });
    const members = await patroni.members();
    const candidate = members.find((member) => member.name === original && member.role === 'sync_standby')
      ? original
      : undefined;
    const switchoverAt = Date.now();
    const switched = await patroni.switchover(options.synchronous ? candidate : original);
    progress(
      `switchover from ${switched.from}${candidate ? ` to ${candidate}` : ''}: ${switched.status} ${switched.body.trim()} (members before: ${JSON.stringify(members)})`,
    );
    let leaderAfterSwitchover: number | undefined;
    if (switched.status === 200) {
      const to = await patroni.waitForLeader((name) => name !== switched.from, 60_000);
      leaderAfterSwitchover = Date.now();
      progress(
        `${to} leads ${((leaderAfterSwitchover - switchoverAt) / 1000).toFixed(1)} s after the switchover request`,
      );
    }

    await Promise.all(clients);
    clearInterval(reporter);
    progress(
      `load over: ${tally.succeeded.length} acknowledged, ${tally.non2xx} non-2xx answers (${tally.unavailable} x 503 with retry-after), ${tally.networkErrors} network errors`,
    );

    await patroni.waitForHealthyMembers(options.nodes, 120_000).catch((error: unknown) => {
      progress(`not every member is back: ${(error as Error).message}`);
    });
    progress(`cluster after the drill: ${JSON.stringify(await patroni.members())}`);
    const { db } = openDatabase<unknown>({
      connectionString: patroni.primaryUrl,
      maxConnections: 4,
      applicationName: 'failover-drill-check',
    });
    let report;
    try {
      await waitForProjections(db, 120_000);
      report = await checkInvariants(db, wallets, tally.succeeded);
    } finally {
      await db.destroy();
    }
    const lost = report.notExactlyOnce.filter((entry) => entry.endsWith(' x0'));
    const doubled = report.notExactlyOnce.filter((entry) => !entry.endsWith(' x0')).length + report.unexplained.length;
    if (lost.length > 0) progress(`LOST (acknowledged, not in the ledger): ${lost.slice(0, 20).join(', ')}`);
    if (doubled > 0)
      progress(`DOUBLED: ${JSON.stringify({ report: report.notExactlyOnce, unexplained: report.unexplained })}`);
    if (tally.errors5xx.length > 0)
      progress(`5xx other than 503+retry-after: ${tally.errors5xx.slice(0, 5).join(' | ')}`);
    const verifyOk = report.verifyDifferences.length === 0 && report.balanceMismatches.length === 0;
    if (!verifyOk)
      progress(
        `verify: ${JSON.stringify({ differences: report.verifyDifferences.slice(0, 10), balances: report.balanceMismatches.slice(0, 10) })}`,
      );

    const firstAfter = (moment: number | undefined): number | null => {
      if (moment === undefined) return null;
      const answers = tally.succeeded
        .filter((success) => success.sentAt >= moment)
        .map((success) => success.answeredAt);
      return answers.length === 0 ? null : Math.min(...answers);
    };
    const recovered = firstAfter(killedAt);
    const afterSwitchover = firstAfter(leaderAfterSwitchover);
    const rtoSeconds = recovered === null ? null : round((recovered - killedAt) / 1000);
    const switchoverSeconds = afterSwitchover === null ? null : round((afterSwitchover - switchoverAt) / 1000);
    const rates = paymentRates(
      tally.succeeded.map((success) => success.answeredAt),
      { loadStart, disturbedAt, settledAt: afterSwitchover, loadEnd: endAt },
    );
    const line = {
      drill: 'failover',
      acknowledged: tally.succeeded.length,
      lost: lost.length,
      doubled,
      non2xx: tally.non2xx,
      errors5xx: tally.errors5xx.length,
      rtoSeconds,
      switchoverSeconds,
      paymentsPerSecondBefore: rates.paymentsPerSecondBefore,
      paymentsPerSecondAfter: rates.paymentsPerSecondAfter,
      rateWindowSeconds: rates.rateWindowSeconds,
      verify: verifyOk ? 'ok' : 'failed',
    };
    const slowAfter =
      rates.paymentsPerSecondBefore === null ||
      rates.paymentsPerSecondAfter === null ||
      rates.paymentsPerSecondAfter < MIN_AFTER_TO_BEFORE * rates.paymentsPerSecondBefore;
    if (slowAfter)
      progress(
        `SLOW AFTER THE SWITCHOVER: ${rates.paymentsPerSecondAfter ?? '-'} payments/s against ${rates.paymentsPerSecondBefore ?? '-'} before (windows of ${rates.rateWindowSeconds ?? '-'} s; at least ${MIN_AFTER_TO_BEFORE}x wanted)`,
      );
    const passed =
      line.lost === 0 &&
      line.doubled === 0 &&
      line.errors5xx === 0 &&
      verifyOk &&
      rtoSeconds !== null &&
      rtoSeconds < 30 &&
      switchoverSeconds !== null &&
      !slowAfter;
    progress(`done in ${((Date.now() - started) / 1000).toFixed(0)} s: ${passed ? 'passed' : 'FAILED'}`);
    return { line, passed };
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await cleanup();
  }
}

/** One client: payments between random wallets until `stop()`, each retried under its key until definite. */
async function payLoop(
  apiUrl: string,
  wallets: readonly Wallet[],
  stop: () => boolean,
  deadline: number,
  tally: Tally,
): Promise<void> {
  while (!stop()) {
    const from = wallets[randomInt(wallets.length)] as Wallet;
    let to = wallets[randomInt(wallets.length)] as Wallet;
    while (to === from) to = wallets[randomInt(wallets.length)] as Wallet;
    const amountPaise = BigInt(randomInt(100, 5_000));
    const key = randomUUID();
    const body = JSON.stringify({
      receiver: to.id,
      amount: Number(amountPaise) / 100,
      reference: 'drill',
      transactionPin: PIN,
    });
    for (let attempt = 1; ; attempt += 1) {
      if (Date.now() > deadline) throw new Error(`payment ${key}: no definite answer before the deadline`);
      const sentAt = Date.now();
      let status: number;
      let text: string;
      let retryAfter: string | null;
      try {
        const response = await fetch(`${apiUrl}/api/transactions/transfer-funds`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${from.token}`,
            'idempotency-key': key,
          },
          body,
          signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
        });
        status = response.status;
        retryAfter = response.headers.get('retry-after');
        text = await response.text();
      } catch {
        // No answer (reset, timeout): the outcome is unknown; the same key settles it. The sleeps
        // here are this client's retry backoff, not waits for the system.
        tally.networkErrors += 1;
        await sleep(Math.min(100 * attempt, 1_000));
        continue;
      }
      if (status >= 200 && status < 300) {
        const parsed = JSON.parse(text) as { success?: boolean; data?: { transactionId?: string } };
        const transactionId = parsed.data?.transactionId;
        if (parsed.success !== true || typeof transactionId !== 'string')
          throw new Error(`2xx without a transaction id: ${text}`);
        tally.succeeded.push({
          transactionId,
          fromId: from.id,
          toId: to.id,
          amountPaise,
          attempts: attempt,
          sentAt,
          answeredAt: Date.now(),
        });
        break;
      }
      tally.non2xx += 1;
      if (status < 500) break;
      let code: string | undefined;
      try {
        code = (JSON.parse(text) as { code?: string }).code;
      } catch {
        code = undefined;
      }
      if (status === 503 && code === 'database_unavailable' && retryAfter !== null) tally.unavailable += 1;
      else tally.errors5xx.push(`${status} retry-after=${retryAfter} ${text.slice(0, 200)}`);
      await sleep(Math.min(100 * attempt, 1_000));
    }
  }
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

export const drill: Drill = {
  usage:
    '[--clients 32] [--seconds 60] [--kill-at 20] [--switchover-at 40] [--nodes 3] [--async] [--kill-all] [--stall-replication-ms 0]: SIGKILL the primary under payments, then switch over; nothing acknowledged may be lost',
  run: async (args, progress) => runFailoverDrill(parseFailoverArgs(args), progress),
};
