/**
 * `npm run drill -- restore`: continuous backup and point-in-time restore with pgBackRest,
 * rehearsed end to end on this machine. A PostgreSQL 15 primary (Debian's binaries, a temp
 * dir, loopback) archives its WAL as it is written (`archive_mode=on`, `archive_command=
 * pgbackrest archive-push %p`) into a pgBackRest repository in the same temp dir; the real
 * API and worker processes run on it. Then: payments; a full backup taken under payments; an
 * incremental backup taken under more payments; a named restore point
 * (`pg_create_restore_point`) once exactly N payments have been acknowledged and no other is
 * in flight; more payments (M in all); the WAL of the last one archived (`archive_timeout`:
 * the most a lost disk can take with it); the server killed and its data directory removed.
 * Restored to the named point: exactly the first N acknowledged payments are there, none of
 * the later ones. Restored to the latest: all M. Each restored copy is promoted, a worker
 * catches its projections up, and verifyLedger must be clean; `pgbackrest check` on the
 * latest copy shows archiving going on from the new timeline, `pgbackrest verify` the
 * repository. Everything lives in one temp dir, removed at the end.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { openDatabase, withClient } from '../../platform/database.ts';
import { freePort } from '../../platform/embedded-postgres.ts';
import { migrateDatabase } from '../../platform/migrate.ts';
import { installation } from '../../runtime/installation.ts';
import { POSTGRES_15_BIN, postgresUser, run, startServer, stopServer, type Server } from '../../test/hot-standby.ts';
import { ROOT } from '../../test/processes.ts';
import { TEST_RUNTIME_LOGIN, withLogin } from '../../test/logins.ts';
import { waitUntil } from '../../test/wait.ts';
import type { Drill, DrillOutcome } from '../drill.ts';
import {
  checkInvariants,
  createFundedWallets,
  runTransferClients,
  waitForProjections,
  type TransferOutcome,
  type Wallet,
} from '../money-load.ts';
import { createCluster, type Cluster, type ManagedProcess } from '../processes.ts';

export const PGBACKREST = '/usr/bin/pgbackrest';
const STANZA = 'wallet';
const DATABASE = 'wallet';
const RESTORE_POINT = 'drill-before-the-last-payments';

export interface RestoreDrillOptions {
  /** Payments per batch; four batches (before the full backup, under it, under the incremental, after the restore point). */
  payments: number;
  wallets: number;
  clients: number;
  /** The primary's archive_timeout: how long WAL may wait in a partly filled segment before it is archived. */
  archiveTimeoutSeconds: number;
  /** The drill gives up (fails) after this. */
  budgetMs: number;
}

export const DEFAULT_OPTIONS: RestoreDrillOptions = {
  payments: 250,
  wallets: 10,
  clients: 4,
  archiveTimeoutSeconds: 5,
  budgetMs: 600_000,
};

const USAGE =
  'pgBackRest full + incremental backups and WAL archiving under payments, the data directory destroyed, restored to a named restore point and to the latest. Options: --payments N (per batch, 4 batches; default 250) --wallets N (10) --clients N (4) --archive-timeout S (5)';

export function parseOptions(args: readonly string[]): RestoreDrillOptions {
  const options = { ...DEFAULT_OPTIONS };
  const names: Record<string, keyof RestoreDrillOptions> = {
    '--payments': 'payments',
    '--wallets': 'wallets',
    '--clients': 'clients',
    '--archive-timeout': 'archiveTimeoutSeconds',
  };
  for (let index = 0; index < args.length; index += 2) {
    const key = names[args[index] as string];
    const value = Number(args[index + 1]);
    if (!key || !Number.isInteger(value) || value < 1)
      throw new Error(`restore drill: bad option ${args[index]}\n${USAGE}`);
    options[key] = value;
  }
  if (options.wallets < 2) throw new Error('restore drill: --wallets must be at least 2');
  return options;
}

export const drill: Drill = {
  usage: USAGE,
  run: (args, progress) => runRestoreDrill(parseOptions(args), progress),
};

type Owner = { uid: number; gid: number } | undefined;

/** What one restored copy holds of the acknowledged payments. */
interface RestoredCount {
  expected: number;
  found: number;
  problems: string[];
}

export async function runRestoreDrill(
  options: RestoreDrillOptions,
  progress: (message: string) => void,
): Promise<DrillOutcome> {
  ensurePackages(progress);
  const started = Date.now();
  const deadline = started + options.budgetMs;
  const root = mkdtempSync(join(tmpdir(), 'wallet-restore-drill-'));
  const owner = postgresUser();
  chmodSync(root, 0o700);
  if (owner) chownSync(root, owner.uid, owner.gid);
  const dataDir = join(root, 'data');
  const live: { server?: Server; cluster?: Cluster } = {};
  const stopLive = async (): Promise<void> => {
    const server = live.server;
    live.server = undefined;
    if (server) await stopServer(server);
  };
  try {
    const port = await freePort();
    const config = writeConfig(root, dataDir, port, owner);
    const pgbackrest = (...args: string[]): Promise<string> => runPgBackRest(config, owner, args);
    const settings = {
      archive_mode: 'on',
      archive_command: `${PGBACKREST} --config=${config} --stanza=${STANZA} archive-push %p`,
      archive_timeout: `${options.archiveTimeoutSeconds}s`,
      wal_level: 'replica',
    };
    const start = async (archiving = true): Promise<Server> =>
      startServer(dataDir, root, owner, false, { port, settings: archiving ? settings : { archive_mode: 'off' } });

    progress(`primary: initdb in ${dataDir}, PostgreSQL 15 on 127.0.0.1:${port}, WAL archived by pgBackRest`);
    run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8'], owner);
    live.server = await start();
    const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
    await withClient(adminUrl, (client) => client.query(`create database ${DATABASE}`));
    const ownerUrl = `postgres://postgres@127.0.0.1:${port}/${DATABASE}`;
    const databaseUrl = withLogin(ownerUrl, TEST_RUNTIME_LOGIN);
    await migrateDatabase(ownerUrl, installation, { runtimeUrl: databaseUrl, resetRuntimePassword: true });
    progress('pgbackrest stanza-create, check');
    await pgbackrest('stanza-create');
    await pgbackrest('check');

    live.cluster = createCluster(databaseUrl);
    const [api] = await Promise.all([
      live.cluster.spawn('api', 'restore-drill-api'),
      live.cluster.spawn('worker', 'restore-drill-worker'),
    ]);
    const baseUrl = (): string => (api as ManagedProcess).url;
    const { wallets } = await createFundedWallets(baseUrl, options.wallets, deadline);
    progress(`API and worker running; ${wallets.length} wallets funded`);

    const acknowledged: TransferOutcome[] = [];
    const pay = async (label: string, alongside?: Promise<unknown>): Promise<void> => {
      const before = acknowledged.length;
      const [result] = await Promise.all([payments(options, wallets, baseUrl, deadline), alongside]);
      acknowledged.push(...result.succeeded);
      const rejected = [...result.rejected].map(([code, count]) => `${code} x${count}`).join(', ');
      progress(
        `${label}: ${acknowledged.length - before} payments acknowledged (${acknowledged.length} in all)${rejected ? `; rejected: ${rejected}` : ''}`,
      );
    };
    await pay('payments');
    await pay(
      'payments during pgbackrest backup --type=full',
      pgbackrest('backup', '--type=full').then(() => progress('full backup done')),
    );
    await pay(
      'payments during pgbackrest backup --type=incr',
      pgbackrest('backup', '--type=incr').then(() => progress('incremental backup done')),
    );
    // Every payment has had its answer and no other is in flight: the point is after exactly these.
    const atPoint = acknowledged.slice();
    const { rows: point } = await withClient(ownerUrl, (client) =>
      client.query<{ lsn: string }>('select pg_create_restore_point($1)::text as lsn', [RESTORE_POINT]),
    );
    progress(`restore point ${RESTORE_POINT} at ${point[0]?.lsn} after ${atPoint.length} acknowledged payments`);
    await pay('payments after the restore point');
    const all = acknowledged.slice();

    await waitForArchived(ownerUrl, deadline, progress);
    await live.cluster.stopAll();
    live.cluster = undefined;
    await crash(live.server);
    live.server = undefined;
    rmSync(dataDir, { recursive: true, force: true });
    progress(`primary killed (SIGQUIT) and its data directory removed: ${dataDir} exists: ${existsSync(dataDir)}`);
    progress(await pgbackrest('info'));

    const restoreAndCount = async (
      label: string,
      restoreArgs: string[],
      expected: readonly TransferOutcome[],
    ): Promise<RestoredCount & { verifyDifferences: string[] }> => {
      rmSync(dataDir, { recursive: true, force: true });
      mkdirSync(dataDir, { mode: 0o700 });
      if (owner) chownSync(dataDir, owner.uid, owner.gid);
      const restoring = Date.now();
      await pgbackrest('restore', ...restoreArgs);
      live.server = await start(!restoreArgs.includes('--archive-mode=off'));
      await waitForPromotion(ownerUrl, deadline);
      progress(`${label}: restored and promoted in ${Date.now() - restoring} ms`);
      live.cluster = createCluster(databaseUrl);
      await live.cluster.spawn('worker', `restore-drill-worker-${label.replaceAll(' ', '-')}`);
      const count = await countAcknowledged(databaseUrl, wallets, expected, all);
      progress(
        `${label}: ${count.found} of ${count.expected} acknowledged payments found; verify: ${count.verifyDifferences.length === 0 ? 'ok' : count.verifyDifferences.join('; ')}${count.problems.length ? `; problems (${count.problems.length}): ${count.problems.slice(0, 5).join('; ')}` : ''}`,
      );
      await live.cluster.stopAll();
      live.cluster = undefined;
      return count;
    };

    const named = await restoreAndCount(
      'restore to the named point',
      // A side copy for inspection: it must not archive a new timeline into the repository.
      ['--type=name', `--target=${RESTORE_POINT}`, '--target-action=promote', '--archive-mode=off'],
      atPoint,
    );
    await stopLive();
    const latest = await restoreAndCount('restore to the latest', ['--type=default'], all);
    progress('pgbackrest check on the restored primary (archiving goes on from its new timeline)');
    const checks: string[] = [];
    await pgbackrest('check').catch((error: Error) => checks.push(`check: ${error.message}`));
    await stopLive();
    progress('pgbackrest verify');
    // pgBackRest 2.45's verify exits 0 even when it finds invalid files: its text report says so.
    await pgbackrest('verify', '--output=text').then(
      (report) => void (/status: error/.test(report) && checks.push(`verify: ${report}`)),
      (error: Error) => checks.push(`verify: ${error.message}`),
    );

    const verifyDifferences = [...named.verifyDifferences, ...latest.verifyDifferences];
    const passed =
      named.found === named.expected &&
      latest.found === latest.expected &&
      named.problems.length === 0 &&
      latest.problems.length === 0 &&
      verifyDifferences.length === 0 &&
      checks.length === 0;
    for (const problem of checks) progress(`pgbackrest ${problem}`);
    progress(`restore drill ${passed ? 'passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s`);
    return {
      line: {
        drill: 'restore',
        atPoint: { expected: named.expected, found: named.found },
        latest: { expected: latest.expected, found: latest.found },
        verify: verifyDifferences.length === 0 ? 'ok' : `${verifyDifferences.length} differences`,
        ...(checks.length > 0 ? { pgbackrest: checks } : {}),
      },
      passed,
    };
  } catch (error) {
    // Still one JSON line (the drill's contract), with what went wrong; the details went to progress.
    progress(`restore drill FAILED: ${(error as Error).stack ?? String(error)}`);
    return { line: { drill: 'restore', error: (error as Error).message.split('\n')[0] }, passed: false };
  } finally {
    await live.cluster?.stopAll();
    if (live.server) await crash(live.server);
    rmSync(root, { recursive: true, force: true });
  }
}

/** Installs pgBackRest and PostgreSQL 15 the way `npm test` does, when one is missing. */
function ensurePackages(progress: (message: string) => void): void {
  if (existsSync(PGBACKREST) && existsSync(join(POSTGRES_15_BIN, 'initdb'))) return;
  progress('pgbackrest or PostgreSQL 15 missing: running scripts/test-prerequisites.ts');
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'test-prerequisites.ts')], { stdio: 'inherit' });
}

function writeConfig(root: string, dataDir: string, port: number, owner: Owner): string {
  const file = join(root, 'pgbackrest.conf');
  for (const dir of ['repo', 'log', 'lock', 'spool']) {
    mkdirSync(join(root, dir), { mode: 0o750 });
    if (owner) chownSync(join(root, dir), owner.uid, owner.gid);
  }
  writeFileSync(
    file,
    [
      '[global]',
      `repo1-path=${join(root, 'repo')}`,
      'repo1-retention-full=2',
      `log-path=${join(root, 'log')}`,
      `lock-path=${join(root, 'lock')}`,
      `spool-path=${join(root, 'spool')}`,
      'log-level-console=warn',
      'log-level-file=detail',
      'compress-type=lz4',
      'start-fast=y',
      'process-max=2',
      '',
      `[${STANZA}]`,
      `pg1-path=${dataDir}`,
      `pg1-port=${port}`,
      `pg1-socket-path=${join(root, `socket-${port}`)}`,
      'pg1-user=postgres',
      '',
    ].join('\n'),
    { mode: 0o640 },
  );
  if (owner) chownSync(file, owner.uid, owner.gid);
  return file;
}

/** pgbackrest as the `postgres` OS user (when we are root), without blocking the event loop: payments go on meanwhile. */
function runPgBackRest(config: string, owner: Owner, args: readonly string[]): Promise<string> {
  const all = [`--config=${config}`, `--stanza=${STANZA}`, ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(PGBACKREST, all, { stdio: ['ignore', 'pipe', 'pipe'], ...(owner ?? {}) });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve(output.trim());
      else reject(new Error(`pgbackrest ${args.join(' ')} failed (${code ?? signal}):\n${output}`));
    });
  });
}

/** One batch: `options.payments` transfers started in all (so the batch ends with none in flight). */
function payments(
  options: RestoreDrillOptions,
  wallets: Wallet[],
  baseUrl: () => string,
  deadline: number,
): ReturnType<typeof runTransferClients> {
  let started = 0;
  return runTransferClients({
    clients: options.clients,
    wallets,
    baseUrl,
    deadline,
    stop: () => {
      if (started >= options.payments) return true;
      started += 1;
      return false;
    },
  });
}

/**
 * Waits until the archiver has archived the WAL segment holding everything written so far:
 * archive_timeout switches to a new segment by itself, with no help (in a real loss nobody
 * is left to call pg_switch_wal).
 */
async function waitForArchived(ownerUrl: string, deadline: number, progress: (message: string) => void) {
  const waited = Date.now();
  const { rows } = await withClient(ownerUrl, (client) =>
    client.query<{ lsn: string; segment: string }>(
      'select pg_current_wal_lsn()::text as lsn, pg_walfile_name(pg_current_wal_lsn()) as segment',
    ),
  );
  const target = rows[0] as { lsn: string; segment: string };
  let archiver: { last: string | null; failed: number } | undefined;
  await waitUntil(
    `segment ${target.segment} to be archived`,
    async () => {
      const { rows: stats } = await withClient(ownerUrl, (client) =>
        client.query<{ last: string | null; failed: number }>(
          'select last_archived_wal as last, failed_count::int as failed from pg_stat_archiver',
        ),
      );
      archiver = stats[0];
      return (archiver?.last ?? '') >= target.segment;
    },
    {
      timeoutMs: Math.max(0, deadline - Date.now()),
      intervalMs: 250,
      detail: () => `last archived ${archiver?.last ?? ''}, ${archiver?.failed} failures`,
    },
  );
  progress(
    `WAL up to ${target.lsn} archived (segment ${target.segment}) ${Date.now() - waited} ms after the last payment`,
  );
}

/** Immediate shutdown, as a crash: nothing more is archived or flushed. */
async function crash(server: Server): Promise<void> {
  if (server.process.exitCode !== null || server.process.signalCode !== null) return;
  const exited = new Promise((resolve) => server.process.once('exit', resolve));
  server.process.kill('SIGQUIT');
  await exited;
}

async function waitForPromotion(ownerUrl: string, deadline: number): Promise<void> {
  await waitUntil(
    'the restored server to leave recovery',
    async () => {
      const { rows } = await withClient(ownerUrl, (client) =>
        client.query<{ recovering: boolean }>('select pg_is_in_recovery() as recovering'),
      );
      return rows[0]?.recovering === false;
    },
    { timeoutMs: Math.max(0, deadline - Date.now()), intervalMs: 200 },
  );
}

/**
 * Of every acknowledged payment (`all`), how many the restored ledger holds exactly once
 * (found), against how many it should (`expected`: the first ones); problems: a payment
 * there that should not be, twice, or one no client was told of, or balances off, after the
 * projections caught up.
 */
async function countAcknowledged(
  databaseUrl: string,
  wallets: readonly Wallet[],
  expected: readonly TransferOutcome[],
  all: readonly TransferOutcome[],
): Promise<RestoredCount & { verifyDifferences: string[] }> {
  const { db } = openDatabase<unknown>({ connectionString: databaseUrl, maxConnections: 2, applicationName: 'drill' });
  try {
    await waitForProjections(db, 60_000);
    const present = await completedTransfers(db);
    const found = all.filter((transfer) => present.get(transfer.transactionId) === 1).length;
    const report = await checkInvariants(db, wallets, expected);
    const problems = [
      ...report.notExactlyOnce.map((id) => `missing or doubled ${id}`),
      ...report.unexplained.map((id) => `not expected here ${id}`),
      ...report.balanceMismatches,
    ];
    return { expected: expected.length, found, problems, verifyDifferences: report.verifyDifferences };
  } finally {
    await db.destroy();
  }
}

async function completedTransfers(db: Kysely<unknown>): Promise<Map<string, number>> {
  const { rows } = await sql<{ id: string; n: number }>`
    select data->>'transferId' as id, count(*)::int as n from ledger.events where type = 'TransferCompleted' group by 1`.execute(
    db,
  );
  return new Map(rows.map((row) => [row.id, row.n]));
}
