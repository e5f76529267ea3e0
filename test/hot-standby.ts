/**
 * A real PostgreSQL primary with a streaming hot standby, made on this machine for the tests
 * of read replicas (and the scale-out benchmark): Debian's PostgreSQL 15 binaries, because
 * pg_basebackup refuses a newer server than itself and the embedded server is newer. The
 * primary is initdb'd in a temp dir (trust auth on loopback), migrated as the app migrates,
 * copied with `pg_basebackup -R` (standby.signal + primary_conninfo) and the copy started on
 * another port as a hot standby. Both run as the `postgres` OS user when we are root
 * (Postgres refuses root). `stop()` stops both and removes the dirs.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withClient } from '../platform/database.ts';
import { freePort } from '../platform/embedded-postgres.ts';
import { migrateDatabase } from '../platform/migrate.ts';
import { installation } from '../runtime/installation.ts';
import { TEST_RUNTIME_LOGIN, withLogin } from './logins.ts';
import { waitUntil } from './wait.ts';

export const POSTGRES_15_BIN = '/usr/lib/postgresql/15/bin';
const DATABASE = 'wallet';
const START_TIMEOUT_MS = 30_000;

export interface PrimaryWithStandby {
  /** The primary's database as the runtime login (what DATABASE_URL would be). */
  primaryUrl: string;
  /** The primary's database as the superuser who migrated it (the owner). */
  primaryOwnerUrl: string;
  /** The standby's copy of it as the runtime login (what READ_DATABASE_URL would be). */
  standbyUrl: string;
  /** Stops WAL replay on the standby (it keeps answering, with what it had): `pg_wal_replay_pause()`. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Resolves once the standby has replayed everything the primary has written so far. */
  caughtUp(timeoutMs?: number): Promise<void>;
  /** Stops the standby's server only (a replica that went down). */
  stopStandby(): Promise<void>;
  /** Stops both servers and removes their data. */
  stop(): Promise<void>;
}

export interface Server {
  port: number;
  process: ChildProcess;
  output: () => string;
}

export interface StandbyOptions {
  /** fsync on, as a real server (the benchmark's B6); off by default: a test's throwaway cluster. */
  durable?: boolean;
}

export async function startPrimaryWithStandby(options: StandbyOptions = {}): Promise<PrimaryWithStandby> {
  assertBinaries();
  const root = mkdtempSync(join(tmpdir(), 'wallet-standby-'));
  const owner = postgresUser();
  chmodSync(root, 0o700);
  if (owner) chownSync(root, owner.uid, owner.gid);
  const servers: Server[] = [];
  const stopAll = async (): Promise<void> => {
    for (const server of servers.reverse()) await stopServer(server);
    rmSync(root, { recursive: true, force: true });
  };
  try {
    const {
      server: primary,
      primaryUrl,
      primaryOwnerUrl,
    } = await startMigratedServer(join(root, 'primary'), root, owner, options, (server) => servers.push(server));
    const standbyDir = join(root, 'standby');
    run(
      'pg_basebackup',
      [
        '-h',
        '127.0.0.1',
        '-p',
        String(primary.port),
        '-U',
        'postgres',
        '-D',
        standbyDir,
        '-R',
        '-X',
        'stream',
        '-c',
        'fast',
      ],
      owner,
    );
    const standby = await startServer(standbyDir, root, owner, options.durable ?? false);
    servers.push(standby);
    const standbyOwnerUrl = `postgres://postgres@127.0.0.1:${standby.port}/${DATABASE}`;
    await assertInRecovery(standbyOwnerUrl);
    const onStandby = (statement: string): Promise<unknown> =>
      withClient(standbyOwnerUrl, (client) => client.query(statement));
    return {
      primaryUrl,
      primaryOwnerUrl,
      standbyUrl: withLogin(standbyOwnerUrl, TEST_RUNTIME_LOGIN),
      pauseReplay: async () => void (await onStandby('select pg_wal_replay_pause()')),
      resumeReplay: async () => void (await onStandby('select pg_wal_replay_resume()')),
      caughtUp: (timeoutMs = 10_000) => waitForReplay(primaryOwnerUrl, standbyOwnerUrl, timeoutMs),
      stopStandby: async () => {
        await stopServer(standby);
        servers.splice(servers.indexOf(standby), 1);
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

export interface SingleNode {
  /** Its database as the runtime login (what DATABASE_URL would be). */
  primaryUrl: string;
  /** Its database as the superuser who migrated it (the owner). */
  primaryOwnerUrl: string;
  /** Stops the server and removes its data. */
  stop(): Promise<void>;
}

/**
 * One PostgreSQL 15 server with nothing attached, migrated: the single-node baseline the
 * benchmark sets the high-availability topology against. `checksums` and `settings` make it
 * the same server as a Patroni node, so the comparison is of the topology alone.
 */
export async function startSingleNode(options: NodeOptions = {}): Promise<SingleNode> {
  assertBinaries();
  const root = mkdtempSync(join(tmpdir(), 'wallet-single-'));
  const owner = postgresUser();
  chmodSync(root, 0o700);
  if (owner) chownSync(root, owner.uid, owner.gid);
  let server: Server | undefined;
  const stop = async (): Promise<void> => {
    if (server) await stopServer(server);
    rmSync(root, { recursive: true, force: true });
  };
  try {
    const { primaryUrl, primaryOwnerUrl } = await startMigratedServer(
      join(root, 'data'),
      root,
      owner,
      options,
      (started) => {
        server = started;
      },
    );
    return { primaryUrl, primaryOwnerUrl, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

type NodeOptions = StandbyOptions & { checksums?: boolean; settings?: Record<string, string> };

/**
 * initdb, start, create the database and migrate it: a primary either topology starts from.
 * `started` hears of the server as soon as it runs, so the caller's cleanup stops it even when
 * the migration fails.
 */
async function startMigratedServer(
  dataDir: string,
  root: string,
  owner: ReturnType<typeof postgresUser>,
  options: NodeOptions,
  started: (server: Server) => void,
): Promise<{ server: Server; primaryUrl: string; primaryOwnerUrl: string }> {
  const initdb = ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8'];
  run('initdb', options.checksums ? [...initdb, '--data-checksums'] : initdb, owner);
  const server = await startServer(dataDir, root, owner, options.durable ?? false, {
    settings: options.settings ?? {},
  });
  started(server);
  const adminUrl = `postgres://postgres@127.0.0.1:${server.port}/postgres`;
  await withClient(adminUrl, (client) => client.query(`create database ${DATABASE}`));
  const primaryOwnerUrl = `postgres://postgres@127.0.0.1:${server.port}/${DATABASE}`;
  const primaryUrl = withLogin(primaryOwnerUrl, TEST_RUNTIME_LOGIN);
  await migrateDatabase(primaryOwnerUrl, installation, { runtimeUrl: primaryUrl, resetRuntimePassword: true });
  return { server, primaryUrl, primaryOwnerUrl };
}

function assertBinaries(): void {
  for (const binary of ['initdb', 'postgres', 'pg_basebackup'])
    if (!existsSync(join(POSTGRES_15_BIN, binary)))
      throw new Error(
        `${join(POSTGRES_15_BIN, binary)} is missing: the read-replica tests need Debian's PostgreSQL 15 server binaries (apt-get install postgresql-15)`,
      );
}

/** The OS user that runs the servers when we are root; undefined: run as ourselves. */
export function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string): number => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  const gid = id('-g');
  if (!Number.isInteger(uid) || uid <= 0) throw new Error('running as root needs a `postgres` OS user to run Postgres');
  return { uid, gid };
}

export function run(binary: string, args: readonly string[], owner: { uid: number; gid: number } | undefined): void {
  const result = spawnSync(join(POSTGRES_15_BIN, binary), args, { encoding: 'utf8', ...(owner ?? {}) });
  if (result.status !== 0)
    throw new Error(`${binary} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
}

/** `port`: a given one (a server started again on its old port); `settings`: more `-c name=value`. */
export async function startServer(
  dataDir: string,
  root: string,
  owner: { uid: number; gid: number } | undefined,
  durable: boolean,
  extra: { port?: number; settings?: Record<string, string> } = {},
) {
  const port = extra.port ?? (await freePort());
  const socketDir = join(root, `socket-${port}`);
  mkdirSync(socketDir, { recursive: true });
  if (owner) chownSync(socketDir, owner.uid, owner.gid);
  const child = spawn(
    join(POSTGRES_15_BIN, 'postgres'),
    [
      '-D',
      dataDir,
      '-p',
      String(port),
      '-k',
      socketDir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=100',
      // A test's throwaway cluster: no fsync. Replication itself is as in production.
      '-c',
      `fsync=${durable ? 'on' : 'off'}`,
      ...Object.entries(extra.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], ...(owner ?? {}) },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const server: Server = { port, process: child, output: () => output };
  await waitForConnections(server);
  return server;
}

async function waitForConnections(server: Server): Promise<void> {
  await waitUntil(
    `postgres on port ${server.port} to accept connections`,
    async () => {
      if (server.process.exitCode !== null)
        throw new Error(`postgres on port ${server.port} exited:\n${server.output()}`);
      return withClient(`postgres://postgres@127.0.0.1:${server.port}/postgres`, (client) =>
        client.query('select 1'),
      ).then(
        () => true,
        () => false,
      );
    },
    { timeoutMs: START_TIMEOUT_MS, intervalMs: 100, detail: server.output },
  );
}

/** Fast shutdown (SIGINT), waited for. */
export async function stopServer(server: Server): Promise<void> {
  if (server.process.exitCode !== null || server.process.signalCode !== null) return;
  const exited = new Promise((resolve) => server.process.once('exit', resolve));
  server.process.kill('SIGINT');
  await exited;
}

async function assertInRecovery(standbyUrl: string): Promise<void> {
  const { rows } = await withClient(standbyUrl, (client) =>
    client.query<{ recovering: boolean }>('select pg_is_in_recovery() as recovering'),
  );
  if (!rows[0]?.recovering) throw new Error('the standby is not in recovery: it is not a hot standby');
}

async function waitForReplay(primaryUrl: string, standbyUrl: string, timeoutMs: number): Promise<void> {
  const { rows } = await withClient(primaryUrl, (client) =>
    // A WAL record of its own: its end is a position the standby reaches by replaying it (an idle
    // primary's insert position can sit past a segment switch that replay never reports).
    client.query<{ lsn: string }>("select pg_logical_emit_message(false, 'wallet-test', 'caught up?')::text as lsn"),
  );
  const target = rows[0]?.lsn;
  await waitUntil(
    `the standby to replay up to ${target}`,
    async () =>
      (
        await withClient(standbyUrl, (client) =>
          client.query<{ done: boolean }>('select pg_last_wal_replay_lsn() >= $1::pg_lsn as done', [target]),
        )
      ).rows[0]?.done,
    { timeoutMs, intervalMs: 20 },
  );
}
